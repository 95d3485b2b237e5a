import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/index.js';

function appWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-config-'));
  mkdirSync(join(dir, 'config'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'config', name), text);
  return dir;
}

describe('configuration', () => {
  const saved = { PORT: process.env.PORT, MONGODB_URI: process.env.MONGODB_URI };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('has Strapi defaults without any file', async () => {
    delete process.env.PORT;
    delete process.env.MONGODB_URI;
    const config = await loadConfig(appWith({}));
    expect(config.server.port).to.equal(1337);
    expect(config.api.rest).to.deep.equal({
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      maxPopulateDepth: 10,
      maxPopulateRelations: 100,
    });
    expect(config.plugins['users-permissions']?.enabled).to.equal(true);
    expect(config.database.uri).to.equal(undefined);
  });

  it('reads json and js files, Strapi-style functions included, and lets the environment win', async () => {
    process.env.PORT = '4000';
    const dir = appWith({
      'server.json': '{"port": 3000, "host": "127.0.0.1"}',
      'api.js': 'export default ({ env }) => ({ rest: { defaultLimit: 10, maxLimit: Number(env("X_MAX", "50")) } });',
      'plugins.json':
        '{"i18n": {"enabled": true, "config": {"defaultLocale": "fr", "locales": ["fr", "en"]}}, "graphql": {"enabled": false}}',
      'permissions.json': '{"public": ["api::article.article.find"]}',
    });
    const config = await loadConfig(dir);
    expect(config.server).to.include({ port: 4000, host: '127.0.0.1' });
    expect(config.api.rest).to.include({ defaultLimit: 10, maxLimit: 50 });
    expect(config.plugins.i18n?.config.defaultLocale).to.equal('fr');
    expect(config.plugins.graphql?.enabled).to.equal(false);
    expect(config.permissions.public).to.deep.equal(['api::article.article.find']);
  });

  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['invalid JSON', { 'server.json': '{ port: ' }, /server\.json: cannot be read/],
    ['a non-integer port', { 'server.json': '{"port": "abc"}' }, /server\.json \(key "port"\)/],
    ['a bad limit', { 'api.json': '{"rest": {"maxLimit": 0}}' }, /api\.json \(key "rest.maxLimit"\)/],
    [
      'a non-boolean enabled',
      { 'plugins.json': '{"i18n": {"enabled": "yes"}}' },
      /plugins\.json \(key "i18n.enabled"\)/,
    ],
    [
      'permissions that are not arrays',
      { 'permissions.json': '{"public": "all"}' },
      /permissions\.json \(key "public"\)/,
    ],
  ];
  for (const [what, files, message] of bad) {
    it(`stops on ${what}, naming the file and key`, async () => {
      delete process.env.PORT;
      let error: unknown;
      try {
        await loadConfig(appWith(files));
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as Error).message).to.match(message);
    });
  }
});

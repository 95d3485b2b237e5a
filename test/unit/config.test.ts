import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { writeFiles } from '../helpers/temp-app.js';

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
      prefix: '/api',
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      maxPopulateDepth: 10,
      maxPopulateRelations: 100,
      timeBudgetMs: 1500,
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
    ['invalid JSON', { 'server.json': '{ port: ' }, /server\.json: is not valid JSON/],
    ['a non-integer port', { 'server.json': '{"port": "abc"}' }, /server\.json \(key "port"\)/],
    ['a bad limit', { 'api.json': '{"rest": {"maxLimit": -2}}' }, /api\.json \(key "rest.maxLimit"\)/],
    [
      'a non-boolean enabled',
      { 'plugins.json': '{"i18n": {"enabled": "yes"}}' },
      /plugins\.json \(key "i18n.enabled"\)/,
    ],
    [
      'permissions that are not arrays',
      { 'permissions.json': '{"public": "all", "authenticated": []}' },
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

describe('configuration: Strapi v4 config files', () => {
  const VARS = [
    'PORT',
    'HOST',
    'NODE_ENV',
    'CS_T_HOST',
    'CS_T_PORT',
    'CS_T_PROXY',
    'CS_T_KEYS',
    'CS_T_URL',
    'CS_T_BAD',
  ];
  const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
  beforeEach(() => {
    for (const k of VARS) if (k !== 'NODE_ENV') delete process.env[k];
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  async function app(files: Record<string, string>): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'cs-strapi-config-'));
    await writeFiles(dir, files);
    return dir;
  }

  async function failure(dir: string): Promise<Error> {
    try {
      await loadConfig(dir);
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      return err as Error;
    }
    throw new Error('loadConfig did not fail');
  }

  it('reads .ts (export default), CommonJS .js and .json files; .env fills the environment, real variables win', async () => {
    process.env.CS_T_HOST = '127.0.0.9';
    const dir = await app({
      'package.json': '{ "name": "a-strapi-project", "private": true }',
      'tsconfig.json':
        '{ "extends": "@strapi/typescript-utils/tsconfigs/server", "compilerOptions": { "outDir": "dist" } }',
      '.env': 'CS_T_HOST=10.0.0.1\nCS_T_PORT=4123\nCS_T_PROXY=true\nCS_T_KEYS=keyA==,keyB==\n',
      'config/server.ts': [
        "import type { Strapi } from '@strapi/strapi';",
        'export default ({ env }) => ({',
        "  host: env('CS_T_HOST', '0.0.0.0'),",
        "  port: env.int('CS_T_PORT', 1337),",
        "  proxy: env.bool('CS_T_PROXY', false),",
        "  app: { keys: env.array('CS_T_KEYS') },",
        '});',
      ].join('\n'),
      'config/api.js':
        "const path = require('path');\nmodule.exports = { rest: { defaultLimit: 7, maxLimit: path.sep === '/' ? 70 : 0 } };",
      'config/admin.json': '{ "apiToken": { "salt": "salt-from-admin" }, "auth": { "secret": "x" } }',
    });
    const config = await loadConfig(dir);
    expect(config.server).to.include({ host: '127.0.0.9', port: 4123, proxy: true });
    expect(config.tree.server).to.deep.include({ app: { keys: ['keyA==', 'keyB=='] } });
    expect(config.api.rest).to.include({ defaultLimit: 7, maxLimit: 70 });
    expect(config.admin.apiTokenSalt).to.equal('salt-from-admin');
  });

  it('reads ESM .js in a "type": "module" project and .mjs', async () => {
    const dir = await app({
      'package.json': '{ "type": "module" }',
      'config/api.js': "export default ({ env }) => ({ rest: { defaultLimit: env.int('CS_T_PORT', 12) } });",
      'config/server.mjs': 'export default { port: 4500 };',
    });
    const config = await loadConfig(dir);
    expect(config.api.rest.defaultLimit).to.equal(12);
    expect(config.server.port).to.equal(4500);
  });

  it('merges config/env/<NODE_ENV>/ over config/ as Strapi does (objects by key, arrays by index)', async () => {
    const dir = await app({
      'config/api.ts': 'export default { rest: { defaultLimit: 10, maxLimit: 50 } };',
      'config/env/production/api.js': 'module.exports = { rest: { maxLimit: 80 } };',
      'config/plugins.ts':
        "export default { 'users-permissions': { config: { jwtSecret: 'base', jwt: { expiresIn: '7d' } } } };",
      'config/env/production/plugins.ts': "export default { 'users-permissions': { config: { jwtSecret: 'prod' } } };",
      'config/middlewares.js':
        "module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'];",
      'config/env/production/middlewares.js':
        "module.exports = ['strapi::errors', 'strapi::logger', 'strapi::security', { name: 'strapi::cors', config: { origin: ['https://site.example'] } }];",
    });
    process.env.NODE_ENV = 'production';
    const production = await loadConfig(dir);
    expect(production.env).to.equal('production');
    expect(production.api.rest).to.include({ defaultLimit: 10, maxLimit: 80 });
    expect(production.plugins['users-permissions']?.config).to.deep.include({
      jwtSecret: 'prod',
      jwt: { expiresIn: '7d' },
    });
    expect(production.middlewares.file).to.equal(join('config', 'env', 'production', 'middlewares.js'));
    expect(production.middlewares.entries.map((e) => e.name)).to.deep.equal([
      'strapi::errors',
      'strapi::logger',
      'strapi::security',
      'strapi::cors',
      'strapi::poweredBy',
      'strapi::query',
      'strapi::body',
      'strapi::favicon',
      'strapi::public',
    ]);
    expect(production.middlewares.entries[3]?.config).to.deep.equal({ origin: ['https://site.example'] });
    process.env.NODE_ENV = 'staging';
    const staging = await loadConfig(dir);
    expect(staging.api.rest.maxLimit).to.equal(50);
    expect(staging.plugins['users-permissions']?.config.jwtSecret).to.equal('base');
  });

  it('evaluates ${...} templates in .json files, as Strapi does', async () => {
    process.env.CS_T_URL = 'https://api.example';
    const dir = await app({
      'config/server.json': '{ "url": "${process.env.CS_T_URL}/v1", "dirs": { "public": "./static" } }',
    });
    const config = await loadConfig(dir);
    expect(config.server.url).to.equal('https://api.example/v1');
    expect(config.server.publicDir).to.equal(join(dir, 'static'));
  });

  it('lists the keys it does not use (admin panel, SQL connection, cron, providers, unknown files)', async () => {
    const dir = await app({
      'config/server.js':
        "module.exports = ({ env }) => ({ host: '0.0.0.0', port: 1337, app: { keys: ['a'] }, cron: { enabled: true }, webhooks: { populateRelations: false } });",
      'config/admin.js':
        "module.exports = { auth: { secret: 's' }, apiToken: { salt: 't' }, transfer: { token: { salt: 'u' } } };",
      'config/database.js': "module.exports = { connection: { client: 'postgres', connection: {} } };",
      'config/plugins.js':
        "module.exports = { upload: { config: { provider: 'aws-s3' } }, email: { config: { provider: 'sendgrid' } }, graphql: { config: { endpoint: '/graphql', apolloServer: { tracing: false, introspection: true } } } };",
      'config/cron-tasks.js': "module.exports = { '0 0 * * *': () => {} };",
    });
    const config = await loadConfig(dir);
    expect(config.ignored).to.have.members([
      'admin.auth',
      'admin.transfer',
      'cron-tasks',
      'database.connection',
      'plugins.graphql.config.apolloServer.introspection',
      'server.webhooks.populateRelations',
    ]);
  });

  it('does not list config/cron-tasks when config/server.js runs those tasks (server.cron.tasks)', async () => {
    const dir = await app({
      'config/server.js':
        "const tasks = require('./cron-tasks');\nmodule.exports = () => ({ cron: { enabled: true, tasks } });",
      'config/cron-tasks.js':
        "module.exports = { nightly: { task: () => {}, options: { rule: '0 0 * * *' } }, '*/5 * * * *': () => {} };",
      'config/later-tasks.js': "module.exports = { nightly: { task: () => {}, options: { rule: '0 1 * * *' } } };",
    });
    expect((await loadConfig(dir)).ignored).to.deep.equal(['later-tasks']);
  });

  it('stops on a config module that requires a package that is not installed, in one line', async () => {
    const dir = await app({
      'config/plugins.js':
        "const aws = require('@strapi/provider-upload-aws-s3/lib');\nmodule.exports = { upload: { config: { provider: aws } } };",
    });
    const error = await failure(dir);
    expect(error.message).to.equal(
      'config/plugins.js: requires the package "@strapi/provider-upload-aws-s3", which is not installed: run "npm install @strapi/provider-upload-aws-s3" in the app directory, or remove what uses it',
    );
  });

  it('leaves out config/logger (Strapi’s winston settings, not used here) when it needs a package that is not installed', async () => {
    const dir = await app({
      'config/logger.js':
        "const { winston } = require('@strapi/logger');\nmodule.exports = { transports: [new winston.transports.Console()] };",
    });
    const config = await loadConfig(dir);
    expect(config.ignored).to.include('logger');
    // any other file that does stops start-up, as above; so does a logger file broken otherwise
    const broken = await app({ 'config/logger.js': 'module.exports = { transports: [' });
    expect((await failure(broken)).message).to.match(/^config\/logger\.js: cannot be loaded: /);
  });

  it('leaves out config/database (an SQL connection, not used here) when it needs a package that is not installed', async () => {
    const dir = await app({
      'config/database.js':
        "const parse = require('pg-connection-string').parse;\nconst config = parse(process.env.DATABASE_URL || '');\nmodule.exports = () => ({ connection: { client: 'postgres', connection: { host: config.host } } });",
    });
    const config = await loadConfig(dir);
    expect(config.ignored).to.include('database.connection');
    expect(config.database.uri).to.equal(process.env.MONGODB_URI || undefined);
    const broken = await app({ 'config/database.js': 'module.exports = { connection: ' });
    expect((await failure(broken)).message).to.match(/^config\/database\.js: cannot be loaded: /);
  });

  const broken: Array<[string, Record<string, string>, RegExp]> = [
    ['a syntax error', { 'config/server.ts': 'export default { port: ' }, /^config\/server\.ts: cannot be loaded: .+/],
    [
      'invalid JSON in env.json',
      {
        '.env': 'CS_T_BAD={nope\n',
        'config/api.js': "module.exports = ({ env }) => ({ rest: env.json('CS_T_BAD') });",
      },
      /^config\/api\.js: cannot be loaded: Invalid json environment variable CS_T_BAD/,
    ],
    [
      'a port that is NaN',
      { 'config/server.js': "module.exports = ({ env }) => ({ port: env.int('CS_T_BAD') });" },
      /port/,
    ],
    [
      'middlewares that are not a list',
      { 'config/middlewares.js': 'module.exports = { cors: true };' },
      /middlewares\.js: must be an array/,
    ],
    [
      'a middleware entry with unknown keys',
      { 'config/middlewares.js': "module.exports = [{ name: 'strapi::cors', options: {} }];" },
      /middlewares\.js \(key "\[0\]"\): has unknown key\(s\) options/,
    ],
    [
      'an api prefix without slash',
      { 'config/api.js': "module.exports = { rest: { prefix: 'v1' } };" },
      /rest\.prefix/,
    ],
  ];
  for (const [what, files, message] of broken) {
    it(`stops on ${what}, naming the file`, async () => {
      if (what === 'a port that is NaN') process.env.CS_T_BAD = 'abc';
      const error = await failure(await app(files));
      expect(error.message).to.match(message);
      expect(error.message).not.to.include('\n');
    });
  }
});

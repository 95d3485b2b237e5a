import { expect } from 'chai';
import request from 'supertest';
import { ConfigError } from '../../src/config/index.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { registerSeedUsers } from './users-permissions/helpers.js';

const SECRET_VARIABLES = ['JWT_SECRET', 'API_TOKEN_SALT'] as const;

/** Runs `fn` without the secrets in the environment, then puts them back. */
async function withoutSecretVariables<T>(fn: () => Promise<T>): Promise<T> {
  const saved = SECRET_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of SECRET_VARIABLES) delete process.env[name];
  try {
    return await fn();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

async function startFailure(start: () => Promise<{ close(): Promise<void> }>): Promise<Error> {
  try {
    const service = await start();
    await service.close();
  } catch (err) {
    return err as Error;
  }
  throw new Error('start-up did not fail');
}

describe('production: secrets', () => {
  it('refuses to start without JWT_SECRET and API_TOKEN_SALT, naming both and where to set them', async () => {
    const err = await withoutSecretVariables(() =>
      startFailure(() => createTestService({ config: { env: 'production' } })),
    );
    expect(err).to.be.instanceOf(ConfigError);
    expect(err.message).to.match(
      /^NODE_ENV=production: JWT_SECRET .*config\/plugins.* and API_TOKEN_SALT .*config\/admin/,
    );
    expect(err.message).to.include('randomBytes').and.not.include('\n');
  });

  it('names only the missing one', async () => {
    const err = await withoutSecretVariables(() =>
      startFailure(() =>
        createTestService({
          config: {
            env: 'production',
            plugins: { 'users-permissions': { enabled: true, config: { jwtSecret: 'from-config' } } },
          },
        }),
      ),
    );
    expect(err.message).to.include('API_TOKEN_SALT').and.not.include('JWT_SECRET');
  });

  describe('given in the configuration (jwtSecret, apiToken.salt)', () => {
    const { logger, lines } = capturingLogger();
    let service: Awaited<ReturnType<typeof createTestService>>;
    before(async () => {
      service = await withoutSecretVariables(() =>
        createTestService({
          logger,
          config: {
            env: 'production',
            admin: { apiTokenSalt: 'salt-from-config' },
            plugins: {
              'users-permissions': {
                enabled: true,
                config: { jwtSecret: 'secret-from-config', ratelimit: { enabled: false } },
              },
            },
          },
        }),
      );
      await registerSeedUsers(service.app);
    });
    after(() => service.close());

    it('starts, and a reset code never reaches the log when no mail transport is configured', async () => {
      lines.length = 0;
      const res = await request(service.app)
        .post('/api/auth/forgot-password')
        .send({ email: 'alice@users.example.com' });
      expect(res.body).to.deep.equal({ ok: true });
      const logged = JSON.stringify(lines);
      expect(logged).not.to.include('code=');
      expect(logged).not.to.include('reset-password?');
      expect(lines.filter((l) => l.level === WARN).map((l) => l.msg)).to.deep.equal([
        'e-mail to alice@users.example.com not sent: no e-mail provider is installed (config/plugins email.config.provider)',
      ]);
    });
  });
});

describe('configuration and schema typos', () => {
  it('warn with "did you mean"; keys Strapi has and this service does not use are only listed', async () => {
    const appDir = await writeTempApp({
      api: {
        note: {
          kind: 'collectionType',
          collectionName: 'notes',
          info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
          attributes: { title: { type: 'string', requried: true }, body: { type: 'text', columnType: 'longtext' } },
        },
      },
      config: { server: { prot: 1337, webhooks: { populateRelations: false } }, api: { rest: { defaultLimt: 10 } } },
    });
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir, logger });
    await service.close();
    const warnings = lines.filter((l) => l.level === WARN).map((l) => l.msg);
    expect(warnings).to.deep.equal([
      'config/api.json: unknown key "rest.defaultLimt" is ignored; did you mean "defaultLimit"?',
      'config/server.json: unknown key "prot" is ignored; did you mean "port"?',
      'schemas/api/note.json (attribute "title"): unknown key "requried" is ignored; did you mean "required"?',
    ]);
    const listed = lines.find((l) => Array.isArray(l.ignored))?.ignored;
    expect(listed).to.deep.equal(['server.webhooks.populateRelations']);
  });
});

describe('configuration values that cannot be used stop start-up naming the file and key', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'jwt.expiresIn',
      { plugins: { 'users-permissions': { config: { jwt: { expiresIn: '30 dayz' } } } } },
      'config/plugins.json (key "users-permissions.config.jwt.expiresIn"): must be a timespan like "30d"',
    ],
    [
      'a GraphQL limit',
      { plugins: { graphql: { config: { depthLimit: 'deep' } } } },
      'config/plugins.json (key "graphql.config.depthLimit"): must be an integer >= 1, got "deep"',
    ],
    ['a port', { server: { port: 70000 } }, 'config/server.json (key "port"): must be an integer from 0 to 65535'],
    [
      'a REST limit',
      { api: { rest: { maxLimit: -2 } } },
      'config/api.json (key "rest.maxLimit"): must be an integer >= -1, got -2',
    ],
  ];
  for (const [what, config, message] of cases)
    it(what, async () => {
      const appDir = await writeTempApp({ config });
      const err = await startFailure(() => createTestService({ appDir }));
      expect(err).to.be.instanceOf(ConfigError);
      expect(err.message).to.include(message);
    });
});

import { expect } from 'chai';
import request from 'supertest';
import { ConfigError } from '../../../src/config/index.js';
import { createTestService, type TestService } from '../../helpers/server.js';
import { NOTE_HELLO_API, writeTempApp, writeTempProject } from '../../helpers/temp-app.js';

describe('users-permissions: rate limit on auth routes', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({
      config: {
        plugins: {
          'users-permissions': { enabled: true, config: { ratelimit: { enabled: true, max: 3, interval: 60_000 } } },
        },
      },
    });
  });
  after(() => service.close());

  it("answers 429 in Strapi's shape after max attempts, whatever the body says", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: `nobody${i}`, password: 'x', email: `random${i}@example.com` });
      expect(res.status).to.equal(400);
    }
    const limited = await request(service.app)
      .post('/api/auth/local')
      .send({ identifier: 'other', password: 'y', email: 'fresh@example.com' });
    expect(limited.status).to.equal(429);
    expect(limited.body).to.deep.equal({
      data: null,
      error: {
        status: 429,
        name: 'RateLimitError',
        message: 'Too many requests, please try again later.',
        details: {},
      },
    });
  });

  it('counts each auth route separately', async () => {
    const res = await request(service.app).post('/api/auth/forgot-password').send({ email: 'a@example.com' });
    expect(res.status).to.equal(200);
  });

  it('is on by default', async () => {
    const defaults = await createTestService({
      config: { plugins: { 'users-permissions': { enabled: true, config: {} } } },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await request(defaults.app).post('/api/auth/local/register').send({})).status);
      expect(statuses.slice(0, 5)).to.deep.equal([400, 400, 400, 400, 400]);
      expect(statuses[5]).to.equal(429);
    } finally {
      await defaults.close();
    }
  });
});

describe('users-permissions: plugin::users-permissions.rateLimit configured in config/middlewares', () => {
  const REQUIRED =
    "'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public'";
  const NOTE = {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  };
  const serviceWith = async (entry: string, ratelimit: Record<string, unknown> = {}) =>
    createTestService({
      appDir: await writeTempApp({
        api: { note: NOTE },
        config: { permissions: { public: ['api::note.note.find'] } },
        files: { 'config/middlewares.js': `module.exports = [${REQUIRED}, ${entry}];` },
      }),
      config: { plugins: { 'users-permissions': { enabled: true, config: { ratelimit } } } },
    });
  const statuses = async (service: TestService, path: string, times: number) => {
    const answered: number[] = [];
    for (let i = 0; i < times; i++) answered.push((await request(service.app).get(path)).status);
    return answered;
  };

  it("takes the entry's max and interval over the plugin's ratelimit, as Strapi spreads them last", async () => {
    const service = await serviceWith(
      "{ name: 'plugin::users-permissions.rateLimit', config: { max: 2, interval: { min: 1 } } }",
    );
    try {
      expect(await statuses(service, '/api/notes', 3)).to.deep.equal([200, 200, 429]);
    } finally {
      await service.close();
    }
  });

  it("limits nothing when the plugin's ratelimit is off, whatever the entry says (Strapi checks the plugin's alone)", async () => {
    const service = await serviceWith(
      "{ name: 'plugin::users-permissions.rateLimit', config: { max: 1, enabled: true } }",
      { enabled: false },
    );
    try {
      expect(await statuses(service, '/api/notes', 3)).to.deep.equal([200, 200, 200]);
    } finally {
      await service.close();
    }
  });

  it("a route's { name, config } middleware takes its config too", async () => {
    const appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello',
        config: { middlewares: [{ name: 'plugin::users-permissions.rateLimit', config: { max: 1 } }] } }] };`,
      'src/api/note/controllers/note.js': 'module.exports = { hello(ctx) { ctx.body = { hello: true }; } };',
    });
    const service = await createTestService({ appDir });
    try {
      expect(await statuses(service, '/api/hello', 2)).to.deep.equal([200, 429]);
    } finally {
      await service.close();
    }
  });

  it('refuses to start on a max that is no positive integer, naming the entry', async () => {
    let message = '';
    try {
      const service = await serviceWith("{ name: 'plugin::users-permissions.rateLimit', config: { max: 'many' } }");
      await service.close();
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).to.include('plugin::users-permissions.rateLimit config.max').and.include('positive integer');
  });
});

// ctx.state.route as Strapi 4.26 hands it to a global middleware after `await next()`: the route
// the request matched (method, path as declared, handler, config.auth, info), whether the service
// answers it directly (core REST routes, the built-in plugins' routes) or through Koa (the app's
// routes, core routes its controller takes part in). An activity log keyed on it
// (`route.path === '/auth/local'`, `route.info.apiName`) works as on Strapi.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const schema = (singularName: string, pluralName: string) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  });

const ACTIVITY = `
const seen = [];
module.exports = (config, { strapi }) => async (ctx, next) => {
  await next();
  if (ctx.path === '/activity') return;
  const route = ctx.state.route;
  seen.push(route ? JSON.parse(JSON.stringify({ method: route.method, path: route.path, handler: route.handler, auth: route.config?.auth, info: route.info })) : null);
};
module.exports.seen = seen;
`;

async function project(): Promise<string> {
  return writeTempProject({
    'package.json': JSON.stringify({ name: 'state-route-project', dependencies: { '@strapi/strapi': '4.26.2' } }),
    'config/middlewares.js': `module.exports = ['strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public', 'global::activity'];`,
    'config/permissions.json': JSON.stringify({
      public: ['api::note.note.find', 'api::memo.memo.create', 'api::note.note.stats'],
    }),
    'src/middlewares/activity.js': ACTIVITY,
    'src/api/note/content-types/note/schema.json': schema('note', 'notes'),
    'src/api/memo/content-types/memo/schema.json': schema('memo', 'memos'),
    // the memo's controller takes part in its core routes
    'src/api/memo/controllers/memo.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::memo.memo', () => ({
  async create(ctx) { const answer = await super.create(ctx); answer.meta.seenRoute = ctx.state.route.handler; return answer; },
}));`,
    'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', () => ({ stats: () => ({ ok: true }) }));`,
    'src/api/note/routes/01-custom.js': `module.exports = { routes: [{ method: 'GET', path: '/notes-stats', handler: 'note.stats' }] };`,
    'src/api/note/routes/note.js': `module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note');`,
    'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.server.routes([{ method: 'GET', path: '/activity', handler: (ctx) => { ctx.body = require('./middlewares/activity').seen; }, config: { auth: false } }]);
  },
};`,
  });
}

describe('ctx.state.route in a global middleware, after the route ran', () => {
  let service: TestService;
  const api = () => request(service.app);
  const lastSeen = async () => {
    const seen = (await api().get('/activity').expect(200)).body as unknown[];
    return seen[seen.length - 1];
  };
  before(async () => {
    service = await createTestService({ appDir: await project() });
  });
  after(() => service.close());

  it('is the core route the REST routes answered: method, path as declared, handler, scope, api', async () => {
    await api().get('/api/notes').expect(200);
    expect(await lastSeen()).to.deep.equal({
      method: 'GET',
      path: '/notes',
      handler: 'api::note.note.find',
      auth: { scope: ['api::note.note.find'] },
      info: { apiName: 'note', type: 'content-api' },
    });
  });

  it("is the core route a project's controller answered, also inside the action", async () => {
    const res = await api()
      .post('/api/memos')
      .send({ data: { text: 'x' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.meta).to.deep.equal({ seenRoute: 'api::memo.memo.create' });
    expect(await lastSeen()).to.deep.include({ method: 'POST', path: '/memos', handler: 'api::memo.memo.create' });
  });

  it("is the users-permissions route that signed a user up (an activity log's '/auth/local/register')", async () => {
    await api()
      .post('/api/auth/local/register')
      .send({ username: 'ann', email: 'ann@example.com', password: 'secret123' })
      .expect(200);
    expect(await lastSeen()).to.deep.equal({
      method: 'POST',
      path: '/auth/local/register',
      handler: 'auth.register',
      auth: { scope: ['plugin::users-permissions.auth.register'] },
      info: { pluginName: 'users-permissions', type: 'content-api' },
    });
  });

  it("is what Strapi's GraphQL endpoint says of itself: a content-API route, no path", async () => {
    const res = await api().post('/graphql').send({ query: '{ notes { data { id } } }' }).expect(200);
    expect(res.body.errors).to.equal(undefined);
    expect(await lastSeen()).to.deep.equal({ info: { type: 'content-api' } });
  });

  it("is the project's own route, and nothing where no route matched", async () => {
    await api().get('/api/notes-stats').expect(200);
    expect(await lastSeen()).to.deep.include({ method: 'GET', handler: 'note.stats' });
    await api().get('/api/nowhere').expect(404);
    expect(await lastSeen()).to.equal(null);
  });
});

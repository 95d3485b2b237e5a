// A route file that wraps a core router, as many Strapi v4 projects write it: a router object whose
// `routes` getter reads `createCoreRouter(uid, { only, config }).routes` and adds routes of its own
// (`innerRouter.routes.concat(extraRoutes)`). Strapi's core router lists its actions' routes
// (handler `<uid>.<action>`, `config.<action>` assigned over each one's config, `only`/`except`
// applied); the wrapper serves what it kept, and nothing else of the content-type's core actions.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const FILES: Record<string, string> = {
  'config/permissions.json': json({ authenticated: ['api::memo.memo.find', 'api::memo.memo.delete'] }),
  'src/api/memo/content-types/memo/schema.json': json({
    kind: 'collectionType',
    collectionName: 'memos',
    info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  }),
  'src/api/memo/controllers/memo.js': `
const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::memo.memo', () => ({
  async loud(ctx) {
    const entry = await strapi.entityService.findOne('api::memo.memo', ctx.params.id);
    return { loud: entry ? entry.title.toUpperCase() : null };
  },
}));
`,
  // CommonJS, the wrapper's routes first, then the kept core routes
  'src/api/memo/routes/memo.js': `
const { createCoreRouter } = require('@strapi/strapi').factories;
const inner = createCoreRouter('api::memo.memo', {
  only: ['find', 'findOne', 'delete'],
  config: { findOne: { auth: false } },
});
function wrap(innerRouter, extraRoutes) {
  let routes;
  return {
    get prefix() { return innerRouter.prefix; },
    get routes() {
      if (!routes) routes = extraRoutes.concat(innerRouter.routes);
      return routes;
    },
  };
}
module.exports = wrap(inner, [
  { method: 'GET', path: '/memos/:id/loud', handler: 'memo.loud', config: { auth: false } },
]);
`,
  'src/api/banner/content-types/banner/schema.json': json({
    kind: 'singleType',
    collectionName: 'banners',
    info: { singularName: 'banner', pluralName: 'banners', displayName: 'Banner' },
    options: { draftAndPublish: false },
    attributes: { text: { type: 'string' } },
  }),
  // TypeScript, export default, a single type's list spread into the router
  'src/api/banner/routes/banner.ts': `
import { factories } from '@strapi/strapi';
const core = factories.createCoreRouter('api::banner.banner', { except: ['delete'], config: { find: { auth: false } } });
export default {
  get routes() {
    return [...core.routes];
  },
};
`,
};

describe('a route file wrapping a core router (innerRouter.routes)', () => {
  let service: TestService;
  let jwt = '';
  const api = () => request(service.app);

  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
    await service.context.connection.collection('memos').insertMany([
      { _id: 1, title: 'one' },
      { _id: 2, title: 'two' },
    ] as never[]);
    await service.context.connection.collection('banners').insertOne({ _id: 1, text: 'Hello' } as never);
    const registered = await api()
      .post('/api/auth/local/register')
      .send({ username: 'lin', email: 'lin@example.com', password: 'Password123!' })
      .expect(200);
    jwt = registered.body.jwt;
  });
  after(() => service.close());

  it("lists Strapi's routes of the core router: handler <uid>.<action>, its config, only applied", async () => {
    const { factories, withStrapiFactories } = await import('../../src/lifecycle/strapi-factories.js');
    const routes = await withStrapiFactories(
      async () =>
        factories.createCoreRouter('api::memo.memo', { except: ['update'], config: { find: { auth: false } } }).routes,
      () => ({ kind: 'collectionType', singularName: 'memo', pluralName: 'memos' }),
    );
    expect(routes.map(({ method, path, handler, config }) => ({ method, path, handler, config }))).to.deep.equal([
      { method: 'GET', path: '/memos', handler: 'api::memo.memo.find', config: { auth: false } },
      { method: 'GET', path: '/memos/:id', handler: 'api::memo.memo.findOne', config: {} },
      { method: 'POST', path: '/memos', handler: 'api::memo.memo.create', config: {} },
      { method: 'DELETE', path: '/memos/:id', handler: 'api::memo.memo.delete', config: {} },
    ]);
  });

  it("serves the wrapper's own route", async () => {
    expect((await api().get('/api/memos/2/loud').expect(200)).body).to.deep.equal({ loud: 'TWO' });
  });

  it("serves the kept core routes with their config and the caller's permissions", async () => {
    const one = await api().get('/api/memos/1').expect(200);
    expect(one.body.data).to.deep.include({ id: 1 });
    expect(one.body.data.attributes.title).to.equal('one');
    await api().get('/api/memos').expect(403);
    const list = await api().get('/api/memos').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(list.body.data.map((e: { id: number }) => e.id)).to.deep.equal([1, 2]);
    expect(list.body.meta.pagination).to.include({ total: 2 });
  });

  it('does not route the core actions the wrapped router left out', async () => {
    await api()
      .post('/api/memos')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'three' } })
      .expect(405);
    await api()
      .put('/api/memos/1')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'uno' } })
      .expect(405);
    expect(await service.context.connection.collection('memos').countDocuments()).to.equal(2);
    await api().delete('/api/memos/2').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(await service.context.connection.collection('memos').countDocuments()).to.equal(1);
  });

  it("serves a single type's wrapped routes (TypeScript, export default)", async () => {
    const res = await api().get('/api/banner').expect(200);
    expect(res.body.data.attributes.text).to.equal('Hello');
    await api().delete('/api/banner').set('Authorization', `Bearer ${jwt}`).expect(405);
  });
});

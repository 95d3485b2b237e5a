// `strapi.requestContext.get()`: the Koa context of the request being served, read by a project's
// services and lifecycle hooks (Strapi 4 keeps it in an AsyncLocalStorage around every request):
// in a custom action's service, in a core route's lifecycle hook, through GraphQL, and undefined
// outside any request.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' }, source: { type: 'string' } },
};

const FILES = {
  'config/permissions.json': JSON.stringify({
    public: ['api::note.note.find', 'api::note.note.create', 'api::note.note.whoCalls'],
  }),
  'src/api/note/content-types/note/schema.json': JSON.stringify(NOTE),
  // the hook stamps each new note with the header of the request that created it
  'src/api/note/content-types/note/lifecycles.js': `module.exports = {
    beforeCreate(event) {
      const ctx = strapi.requestContext.get();
      event.params.data.source = ctx ? ctx.request.header['x-source'] || 'no header' : 'no request';
    },
  };`,
  'src/api/note/services/note.js': `const { createCoreService } = require('@strapi/strapi').factories;
module.exports = createCoreService('api::note.note', ({ strapi }) => ({
  caller() {
    const ctx = strapi.requestContext.get();
    return { path: ctx.request.path, method: ctx.method, seen: ctx.state.seen };
  },
}));`,
  'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async whoCalls(ctx) {
    ctx.state.seen = 'by the controller';
    await new Promise((resolve) => setTimeout(resolve, 5));
    return strapi.service('api::note.note').caller();
  },
}));`,
  'src/api/note/routes/note.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note');",
  'src/api/note/routes/who.js':
    "module.exports = { routes: [{ method: 'POST', path: '/who-calls', handler: 'note.whoCalls' }] };",
  'src/index.js': `module.exports = {
    async bootstrap({ strapi }) {
      await strapi.entityService.create('api::note.note', { data: { text: 'seeded' } });
    },
  };`,
};

describe('strapi.requestContext.get() in services and lifecycle hooks', () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-request-context-'));
    await writeFiles(appDir, FILES);
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("answers the request's ctx in a service a controller calls, after an await, with the controller's state", async () => {
    const res = await api().post('/api/who-calls').send({ any: 'body' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ path: '/api/who-calls', method: 'POST', seen: 'by the controller' });
  });

  it("answers it in a lifecycle hook of a core route's write, a REST one and a GraphQL one", async () => {
    const rest = await api()
      .post('/api/notes')
      .set('X-Source', 'rest client')
      .send({ data: { text: 'a' } });
    expect(rest.status, JSON.stringify(rest.body)).to.equal(200);
    const graph = await api()
      .post('/graphql')
      .set('X-Source', 'graphql client')
      .send({ query: 'mutation { createNote(data: { text: "b" }) { data { id } } }' });
    expect(graph.body.errors, JSON.stringify(graph.body.errors)).to.equal(undefined);
    const list = await api().get('/api/notes?sort=id&fields[0]=text&fields[1]=source').expect(200);
    expect(list.body.data.map((n: { attributes: unknown }) => n.attributes)).to.deep.equal([
      { text: 'seeded', source: 'no request' },
      { text: 'a', source: 'rest client' },
      { text: 'b', source: 'graphql client' },
    ]);
  });
});

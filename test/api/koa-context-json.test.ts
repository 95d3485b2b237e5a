// What JSON.stringify writes of a Koa ctx, as Koa 2's toJSON (request, response, app without its
// keys, placeholders for the node objects): a controller answering `this.transformResponse(entry,
// ctx)` (ctx given where meta goes) is answered with that as `meta`, as in Strapi, instead of a
// cycle through the socket. A body that cannot be written at all (a BigInt) is Koa's plain-text 500,
// and the service goes on serving.
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
  attributes: { text: { type: 'string' } },
};

const FILES = {
  'config/server.js': "module.exports = { app: { keys: ['secret-one', 'secret-two'] } };",
  'config/permissions.json': JSON.stringify({
    public: ['api::note.note.findOne', 'api::note.note.bigNumber', 'api::note.note.find'],
  }),
  'src/api/note/content-types/note/schema.json': JSON.stringify(NOTE),
  'src/api/note/routes/note.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::note.note', { only: ['find', 'findOne'] });",
  'src/api/note/routes/big.js':
    "module.exports = { routes: [{ method: 'GET', path: '/big-number', handler: 'note.bigNumber' }] };",
  'src/api/note/controllers/note.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::note.note', ({ strapi }) => ({
  async findOne(ctx) {
    const entry = await strapi.entityService.findOne('api::note.note', ctx.params.id);
    return this.transformResponse(entry, ctx);
  },
  bigNumber(ctx) {
    ctx.body = { count: BigInt(12) };
  },
}));`,
  'src/index.js': `module.exports = {
    async bootstrap({ strapi }) {
      await strapi.entityService.create('api::note.note', { data: { text: 'first' } });
    },
  };`,
};

describe('a Koa ctx written as JSON', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-ctx-json-'));
    await writeFiles(appDir, FILES);
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("answers ctx given as transformResponse's meta as Koa's toJSON writes it", async () => {
    const res = await request(service.app).get('/api/notes/1').set('X-Trace', 'abc');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.deep.equal({ id: 1, attributes: res.body.data.attributes });
    expect(res.body.data.attributes.text).to.equal('first');
    const { meta } = res.body;
    expect(Object.keys(meta)).to.deep.equal(['request', 'response', 'app', 'originalUrl', 'req', 'res', 'socket']);
    expect(meta.request).to.include({ method: 'GET', url: '/api/notes/1' });
    expect(meta.request.header['x-trace']).to.equal('abc');
    expect(Object.keys(meta.response)).to.deep.equal(['status', 'message', 'header']);
    expect(meta.app).to.deep.equal({ subdomainOffset: 2, proxy: false, env: meta.app.env });
    expect(JSON.stringify(meta)).not.to.include('secret-one');
    expect(meta).to.include({
      originalUrl: '/api/notes/1',
      req: '<original node req>',
      res: '<original node res>',
      socket: '<original node socket>',
    });
  });

  it('answers a body JSON cannot write with a plain-text 500, and serves the next request', async () => {
    const res = await request(service.app).get('/api/big-number');
    expect(res.status).to.equal(500);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.equal('Internal Server Error');
    const next = await request(service.app).get('/api/notes');
    expect(next.status).to.equal(200);
    expect(next.body.data).to.have.length(1);
  });
});

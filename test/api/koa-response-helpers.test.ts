// Strapi's response helpers live on Koa's response, the context delegating to them
// (@strapi/strapi services/server/koa.js): `ctx.response.forbidden(message)` in a policy (the
// policy context's `response`), `ctx.response.send(data, status)`, `created`, `deleted` and every
// 4xx/5xx helper answer as `ctx.forbidden(...)` does (was a TypeError, a 500).
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const ROUTES = `module.exports = { routes: [
  { method: 'GET', path: '/guarded', handler: (ctx) => { ctx.body = ctx.body || { reached: true }; }, config: { auth: false, policies: ['members-only'] } },
  { method: 'POST', path: '/made', handler: (ctx) => ctx.response.created({ made: true }), config: { auth: false } },
  { method: 'GET', path: '/sent', handler: (ctx) => ctx.response.send({ sent: true }, 202), config: { auth: false } },
  { method: 'DELETE', path: '/gone', handler: (ctx) => ctx.response.deleted(), config: { auth: false } },
  { method: 'GET', path: '/teapot', handler: (ctx) => ctx.response.imATeapot('Short and stout', { spout: 1 }), config: { auth: false } },
  { method: 'GET', path: '/keys', handler: (ctx) => ({ keys: Object.keys(ctx.response).filter((key) => key === 'forbidden' || key === 'send') }), config: { auth: false } },
] };`;

// refuses through the policy context's response (as many projects' policies do) unless ?member=1
const POLICY = `module.exports = (policyContext) => {
  if (policyContext.request.query.member === '1') return true;
  return policyContext.response.forbidden('Members only', { reason: 'membership' });
};`;

const FILES = {
  'src/api/note/content-types/note/schema.json': json({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { text: { type: 'string' } },
  }),
  'src/api/note/routes/custom.js': ROUTES,
  'src/policies/members-only.js': POLICY,
};

describe("Strapi's response helpers on ctx.response", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it("answers a policy's policyContext.response.forbidden(message, details) in Strapi's error shape", async () => {
    const refused = await api().get('/api/guarded').expect(403);
    expect(refused.body).to.deep.equal({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Members only', details: { reason: 'membership' } },
    });
    expect((await api().get('/api/guarded?member=1').expect(200)).body).to.deep.equal({ reached: true });
  });

  it('answers send, created, deleted and a named error helper', async () => {
    expect((await api().post('/api/made').expect(201)).body).to.deep.equal({ made: true });
    expect((await api().get('/api/sent').expect(202)).body).to.deep.equal({ sent: true });
    await api().delete('/api/gone').expect(204);
    const teapot = await api().get('/api/teapot').expect(418);
    expect(teapot.body.error).to.deep.include({ status: 418, message: 'Short and stout', details: { spout: 1 } });
  });

  it('keeps them out of the response object enumerated, as Koa prototype methods', async () => {
    expect((await api().get('/api/keys').expect(200)).body).to.deep.equal({ keys: [] });
  });
});

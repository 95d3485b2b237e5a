// Koa's context members that npm middlewares a project mounts rely on (koa-cash: `ctx.vary`,
// `ctx.request.fresh`; koa-conditional-get and koa-etag: `ctx.fresh`, `ctx.etag`) and a copy of
// Strapi's errors middleware reading Koa's `ctx.response._explicitStatus` after `await next()`.
// Before, `ctx.vary` was missing (every request a 500) and `_explicitStatus` undefined (every
// request a 404) in evle/strapiv4-boilerplate.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeTempProject } from '../helpers/temp-app.js';

const CONDITIONAL = `module.exports = () => async (ctx, next) => {
  ctx.vary('Accept-Encoding');
  await next();
  if (!ctx.path.endsWith('/hello')) return;
  ctx.etag = 'v1';
  ctx.lastModified = new Date('2024-01-02T03:04:05Z');
  ctx.set('x-seen', JSON.stringify({
    search: ctx.search,
    pathname: ctx.URL.pathname,
    idempotent: ctx.idempotent,
    hasVary: ctx.has('Vary'),
    length: ctx.length,
    gzip: ctx.acceptsEncodings('gzip', 'identity'),
    writable: ctx.writable,
    explicit: ctx.response._explicitStatus,
  }));
  if (ctx.fresh) ctx.status = 304;
};
`;

// as Strapi's own errors middleware ends (projects copy it): nothing set the status, a 404
const ERRORS_COPY = `module.exports = () => async (ctx, next) => {
  await next();
  if (!ctx.response._explicitStatus) return ctx.notFound();
};
`;

const BODY_TYPES = `module.exports = {
  hello(ctx) { ctx.body = { ok: true }; },
  echo(ctx) { ctx.body = { type: ctx.request.type, charset: ctx.request.charset, length: ctx.request.length, stale: ctx.stale }; },
};
`;

describe("Koa's context members for npm middlewares (vary, fresh, etag, _explicitStatus...)", () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      ...NOTE_HELLO_API,
      'config/permissions.json': JSON.stringify({ public: ['api::note.note.hello', 'api::note.note.echo'] }),
      'config/middlewares.js': `module.exports = ['strapi::errors', 'global::errors-copy', 'strapi::security', 'strapi::cors',
  'strapi::query', 'strapi::body', 'strapi::favicon', 'strapi::public', 'global::conditional'];
`,
      'src/middlewares/conditional.js': CONDITIONAL,
      'src/middlewares/errors-copy.js': ERRORS_COPY,
      'src/api/note/controllers/note.js': BODY_TYPES,
      'src/api/note/routes/hello.js': `module.exports = { routes: [
  { method: 'GET', path: '/hello', handler: 'note.hello' },
  { method: 'POST', path: '/echo', handler: 'note.echo' },
] };
`,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('answers with Vary, ETag and Last-Modified, and the request members as Koa gives them', async () => {
    const res = await request(service.app).get('/api/hello?x=1').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.body).to.deep.equal({ ok: true });
    expect(res.headers.vary).to.match(/Accept-Encoding/);
    expect(res.headers.etag).to.equal('"v1"');
    expect(res.headers['last-modified']).to.equal('Tue, 02 Jan 2024 03:04:05 GMT');
    expect(JSON.parse(String(res.headers['x-seen']))).to.deep.equal({
      search: '?x=1',
      pathname: '/api/hello',
      idempotent: true,
      hasVary: true,
      length: 11,
      gzip: 'gzip',
      writable: true,
      explicit: true,
    });
  });

  it('answers 304 to a client whose cached ETag is still fresh, as koa-conditional-get does', async () => {
    const res = await request(service.app).get('/api/hello').set('If-None-Match', '"v1"');
    expect(res.status).to.equal(304);
    const changed = await request(service.app).get('/api/hello').set('If-None-Match', '"v0"');
    expect(changed.status).to.equal(200);
  });

  it("leaves a request no route answers to the copied errors middleware's 404, and reads the request body's type", async () => {
    const missing = await request(service.app).get('/api/nowhere');
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.include({ status: 404, name: 'NotFoundError' });
    const echo = await request(service.app)
      .post('/api/echo')
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"a":1}')
      .expect(200);
    expect(echo.body).to.deep.equal({ type: 'application/json', charset: 'utf-8', length: 7, stale: true });
  });
});

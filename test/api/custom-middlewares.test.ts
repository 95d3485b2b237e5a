// A Strapi v4 project's own middlewares (test/fixtures/middlewares-project, config/middlewares.js):
// global:: (CommonJS and TypeScript), api:: and { resolve } forms run as Koa middlewares at their
// place among the built-in ones, for REST, GraphQL and public files.
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';

const MIDDLEWARES_PROJECT = fileURLToPath(new URL('../fixtures/middlewares-project', import.meta.url));

describe("a Strapi v4 project's own middlewares", () => {
  let service: TestService;
  const { logger, lines } = capturingLogger();
  const api = () => request(service.app);
  const articles = () => service.context.connection.collection('articles');

  before(async () => {
    service = await createTestService({ appDir: MIDDLEWARES_PROJECT, logger });
    await api()
      .post('/api/articles')
      .send({ data: { title: 'First' } })
      .expect(200);
  });
  after(() => service.close());

  it('does not list the api middleware it runs among the code that is not run', () => {
    expect(lines.map((l) => l.msg ?? '').join('\n')).to.not.include('middlewares/stamp');
  });

  it('runs a header set before next() and one read after it, with ctx.state shared between them', async () => {
    const res = await api().get('/api/articles').expect(200);
    expect(res.headers['x-before']).to.equal('yes');
    expect(res.headers['x-seen-status']).to.equal('200');
    expect(res.headers['x-seen-by']).to.equal('before-header');
    expect(res.headers['x-api-middleware']).to.equal('article');
    expect(res.headers['x-powered-by']).to.equal('Strapi <strapi.io>');
  });

  it('lets a TypeScript middleware change the body of a REST answer after next()', async () => {
    const res = await api().get('/api/articles').expect(200);
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.body.data.map((a: { attributes: { title: string } }) => a.attributes.title)).to.include('First');
    expect(res.body.meta.wrapped).to.equal('wrapped-by-config');
    expect(res.body.meta.pagination).to.include({ page: 1, pageSize: 25 });
    expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.text));
    // other paths are left as they are
    const one = await api().get(`/api/articles/${res.body.data[0].id}`).expect(200);
    expect(one.body.meta).to.deep.equal({});
  });

  it('gives a { resolve } middleware its config and the strapi object', async () => {
    const res = await api().get('/api/articles').expect(200);
    expect(res.headers['x-resolved']).to.equal('from-config');
    expect(res.headers['x-content-type-name']).to.equal('Article');
  });

  it('lets a middleware rewrite the URL and edit the query the routes read', async () => {
    await api()
      .post('/api/articles')
      .send({ data: { title: 'Second' } })
      .expect(200);
    const rewritten = await api().get('/v1/articles').expect(200);
    expect(rewritten.body.meta.wrapped).to.equal('wrapped-by-config');
    expect(rewritten.body.data.length).to.be.greaterThan(1);
    const paged = await api().get('/api/articles').set('X-Page-Size', '1').expect(200);
    expect(paged.body.data).to.have.length(1);
    expect(paged.body.meta.pagination).to.include({ pageSize: 1 });
  });

  it('runs each middleware at its place: the body is there only after strapi::body', async () => {
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'Placed' } })
      .expect(200);
    expect(res.headers['x-body-before']).to.equal('none');
    expect(res.headers['x-body-after']).to.equal('Placed');
    expect(res.headers['x-seen-status']).to.equal('200');
    // as koa-body leaves it: an empty object once the parser ran, whatever the method
    const read = await api().get('/api/articles').expect(200);
    expect(read.headers['x-body-before']).to.equal('none');
    expect(read.headers['x-body-after']).to.equal('empty');
  });

  it('answers for the middleware that does not call next(): nothing downstream runs', async () => {
    const before = await articles().countDocuments();
    const res = await api()
      .post('/api/articles')
      .set('X-Block', 'yes')
      .send({ data: { title: 'Blocked' } })
      .expect(403);
    expect(res.body).to.deep.equal({ blocked: true, path: '/api/articles', method: 'POST' });
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    // the middlewares before it see its answer
    expect(res.headers['x-seen-status']).to.equal('403');
    expect(res.headers['x-api-middleware']).to.equal(undefined);
    expect(await articles().countDocuments()).to.equal(before);
  });

  it("answers ctx.throw(401, 'x') in Strapi's error shape", async () => {
    const res = await api().get('/api/articles').set('X-Fail', 'throw-401').expect(401);
    expect(res.body).to.deep.equal({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'x' } });
    expect(res.headers['x-before']).to.equal('yes');
  });

  it("answers ctx.badRequest(message, details) in Strapi's error shape", async () => {
    const res = await api().get('/api/articles').set('X-Fail', 'bad-request').expect(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 400, name: 'BadRequestError', message: 'bad input', details: { field: 'title' } },
    });
  });

  it('answers an error thrown by a middleware with a 500 in Strapi shape, and logs it', async () => {
    const res = await api().get('/api/articles').set('X-Fail', 'crash').expect(500);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' },
    });
    expect(JSON.stringify(lines)).to.include('middleware crashed');
  });

  it('redirects with ctx.redirect', async () => {
    const res = await api().get('/api/articles/1').set('X-Fail', 'redirect').expect(302);
    expect(res.headers.location).to.equal('/api/articles');
  });

  it('passes an error of the routes through next() unchanged', async () => {
    const res = await api().post('/api/articles').send({ data: {} }).expect(400);
    expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    expect(res.headers['x-before']).to.equal('yes');
    // as in Koa, the code after `await next()` does not run when next() rejects
    expect(res.headers['x-seen-status']).to.equal(undefined);
  });

  it('runs for GraphQL requests, which pass through', async () => {
    const res = await api()
      .post('/graphql')
      .send({ query: '{ articles { data { attributes { title } } } }' })
      .expect(200);
    expect(res.body.errors).to.equal(undefined);
    expect(res.body.data.articles.data.map((a: { attributes: { title: string } }) => a.attributes.title)).to.include(
      'First',
    );
    expect(res.headers['x-before']).to.equal('yes');
    expect(res.headers['x-seen-status']).to.equal('200');
    // the answer's text, as Apollo's Koa integration leaves it in Strapi
    expect(res.headers['x-body-kind']).to.equal('string');
  });

  it('runs for users-permissions routes, whose answer it reads after next()', async () => {
    const res = await api()
      .post('/api/auth/local/register')
      .send({ username: 'reader', email: 'reader@example.org', password: 'Password123!' })
      .expect(200);
    expect(res.body.jwt).to.be.a('string');
    expect(res.body.user).to.include({ username: 'reader' });
    expect(res.headers['x-seen-status']).to.equal('200');
    expect(res.headers['x-body-kind']).to.equal('object');
    // after next(), ctx.state.user is the user the route authenticated
    const read = await api().get('/api/articles').set('Authorization', `Bearer ${res.body.jwt}`).expect(200);
    expect(read.headers['x-user']).to.equal('reader');
    const anonymous = await api().get('/api/articles').expect(200);
    expect(anonymous.headers['x-user']).to.equal(undefined);
  });

  it('runs for public files, which are streamed past the capture', async () => {
    const res = await api().get('/robots.txt').expect(200);
    expect(res.text).to.equal('User-agent: *\n');
    expect(res.headers['x-before']).to.equal('yes');
  });

  it("answers 404 in Strapi's shape for a path nothing serves", async () => {
    const res = await api().get('/api/nothing-here').expect(404);
    expect(res.body.error).to.include({ status: 404, name: 'NotFoundError' });
    expect(res.headers['x-seen-status']).to.equal('404');
  });
});

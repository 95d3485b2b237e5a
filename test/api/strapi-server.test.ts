// `strapi.server` of a Strapi v4 project (test/fixtures/server-project, src/index.js): routes added
// with routes([...]) and routes({ type: 'content-api' }), their auth, policies and middlewares,
// ctx.params, and Koa middlewares added with use() in register and in bootstrap.
import { runningStrapi } from '../../src/lifecycle/index.js';
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';

const SERVER_PROJECT = fileURLToPath(new URL('../fixtures/server-project', import.meta.url));

/** A one-file project whose src/index.js register() is `body`; the start-up error it gives. */
const registerError = (body: string): Promise<string> =>
  startUpError({ 'src/index.js': `module.exports = { register({ strapi }) { ${body} } };\n` });

describe("a Strapi v4 project's strapi.server", () => {
  let service: TestService;
  let jwt = '';
  const api = () => request(service.app);

  before(async () => {
    service = await createTestService({ appDir: SERVER_PROJECT });
    const registered = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123!' })
      .expect(200);
    jwt = registered.body.jwt;
    await service.context.connection.collection<{ _id: number; title: string; views: number }>('articles').insertMany([
      { _id: 1, title: 'One', views: 5 },
      { _id: 2, title: 'Two', views: 7 },
    ]);
  });
  after(() => service.close());

  it('serves a route outside the content API with auth: false, with path params and both use() middlewares', async () => {
    const res = await api().get('/ping/world').expect(200);
    expect(res.body).to.deep.equal({ pong: 'world', order: ['register-use', 'bootstrap-use'], user: null });
    expect(res.headers['content-type']).to.match(/^application\/json/);
  });

  it('refuses a route outside the content API without auth: false (401, as Strapi: no strategy serves it)', async () => {
    const res = await api().get('/needs-auth').set('Authorization', `Bearer ${jwt}`).expect(401);
    expect(res.body.error).to.include({
      status: 401,
      name: 'UnauthorizedError',
      message: 'Missing or invalid credentials',
    });
  });

  it('serves a content-API route under the REST prefix with its scope checked against the role', async () => {
    const open = await api().get('/api/articles/2/views').expect(200);
    expect(open.body).to.deep.equal({ views: 7, user: null });
    const asUser = await api().get('/api/articles/2/views').set('Authorization', `Bearer ${jwt}`).expect(403);
    expect(asUser.body.error).to.include({ status: 403, name: 'ForbiddenError' });
    // the path pattern (\d+) is the router's own
    await api().get('/api/articles/abc/views').expect(404);
  });

  it('lists the routes the app added: all of them, those of the content API, none of the admin API', async () => {
    const res = await api().get('/route-list').expect(200);
    expect(res.body.all).to.include.members([
      'HEAD,GET /ping/:name',
      'HEAD,GET /api/bootstrap-hello',
      'HEAD,GET /route-list',
    ]);
    expect(res.body.contentApi).to.include('/api/bootstrap-hello');
    expect(res.body.contentApi).not.to.include('/route-list');
    expect(res.body.admin).to.deep.equal([]);
  });

  it('matches routes added in bootstrap after the core routes, as Strapi registers them after its routers', async () => {
    // GET /articles/:id of the core router answers first: no article has that id
    const shadowed = await api().get('/api/articles/from-bootstrap').expect(404);
    expect(shadowed.body.error).to.include({ status: 404, name: 'NotFoundError' });
    expect((await api().get('/api/bootstrap-hello').expect(200)).body).to.deep.equal({ hello: 'bootstrap' });
    expect((await api().get('/outside-from-bootstrap').expect(200)).body).to.deep.equal({ outside: true });
    // added in register, the same kind of path comes before the core route
    expect((await api().get('/api/articles/2/views').expect(200)).body).to.include({ views: 7 });
  });

  it('gives a content-API handler ctx.state.user and uses its returned value as the body', async () => {
    await api().post('/api/articles/1/like').expect(403);
    const res = await api().post('/api/articles/1/like').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(res.body).to.deep.equal({ views: 6, by: 'ada' });
    const stored = await service.context.connection
      .collection<{ _id: number; title: string; views: number }>('articles')
      .findOne({ _id: 1 });
    expect(stored?.views).to.equal(6);
  });

  it('lets an authenticated user reach an unscoped content-API route and refuses the public (401)', async () => {
    await api().get('/api/me/hello').expect(401);
    const res = await api().get('/api/me/hello').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(res.body).to.deep.equal({ hello: 'ada' });
    await api().get('/api/me/hello').set('Authorization', 'Bearer not.a.jwt').expect(401);
  });

  it("runs the route's policies (global and api, with config and ctx.params) and middlewares", async () => {
    const passed = await api().get('/api/guarded/4').set('x-allow', 'yes').expect(200);
    expect(passed.body).to.deep.equal({ id: '4', tag: 'route' });
    expect(passed.headers['x-tag']).to.equal('route');
    const noHeader = await api().get('/api/guarded/4').expect(403);
    // Strapi's authorization step answers the policy's PolicyError as its own refusal
    expect(noHeader.body).to.deep.equal({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
    });
    await api().get('/api/guarded/3').set('x-allow', 'yes').expect(403);
  });

  it('runs a controller action a content-API route names by its uid (no scope: users, not the public)', async () => {
    await api().get('/api/articles-by-uid').expect(401);
    const res = await api().get('/api/articles-by-uid').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(res.body.data.map((a: { attributes: { title: string } }) => a.attributes.title)).to.include('Two');
  });

  it('leaves the default content API as it was', async () => {
    const res = await api().get('/api/articles/2').expect(200);
    expect(res.body.data.attributes.title).to.equal('Two');
  });

  it("takes GraphQL extensions given to the extension service's use passed around unbound", async () => {
    const res = await api().post('/graphql').send({ query: '{ serverProjectHello }' }).expect(200);
    expect(res.body).to.deep.equal({ data: { serverProjectHello: 'hello' } });
  });

  it('turns on trust proxy when bootstrap sets strapi.server.app.proxy', () => {
    expect(service.app.get('trust proxy')).to.equal(true);
  });

  it('runs the config/server cron tasks once bootstrap is over, and not a job removed with strapi.cron.remove', async () => {
    const settings = service.context.connection.collection<{ key: string; value: unknown }>(
      'strapi_core_store_settings',
    );
    let ticks: unknown = null;
    for (let tries = 0; tries < 40 && !ticks; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ticks = (await settings.findOne({ key: 'cron_ticks_count' }))?.value ?? null;
    }
    expect(ticks).to.be.a('number').at.least(1);
    expect(await settings.findOne({ key: 'cron_removed_ran' })).to.equal(null);
    expect(runningStrapi()?.cron?.jobs).to.have.length(1);
  });

  it('gives bootstrap the HTTP server the service then listens on', async () => {
    const { url } = await service.start({ port: 0, host: '127.0.0.1' });
    // what socket.io and ws attach to
    expect(runningStrapi()?.server?.httpServer.listening).to.equal(true);
    const res = await fetch(`${url}/ping/socket`);
    expect(await res.json()).to.include({ pong: 'socket' });
  });
});

describe('strapi.server routes that cannot be served stop start-up in one line', () => {
  it('names a handler that is no controller action (a route outside an api names its controller by uid)', async () => {
    const message = await registerError(`strapi.server.routes([{ method: 'GET', path: '/x', handler: 'note.find' }]);`);
    expect(message).to.equal('src/index.js: route GET /x: handler not found "note.find": no such controller action');
  });

  it('names a policy file that does not exist', async () => {
    const message = await registerError(
      `strapi.server.routes([{ method: 'GET', path: '/x', handler: () => 1, config: { policies: ['global::nope'] } }]);`,
    );
    expect(message).to.equal(
      'src/index.js: route GET /x: policy "global::nope" is not found: no file src/policies/nope.{ts,js}',
    );
  });

  it('refuses the admin API, which this service does not have', async () => {
    const message = await registerError(`strapi.server.api('admin').routes([]);`);
    expect(message).to.include(
      "strapi.server.api('admin').routes is not supported by Content Service: the admin panel is not part of this service",
    );
    expect(await registerError(`strapi.server.api('admin').use(() => {});`)).to.include(
      "strapi.server.api('admin').use is not supported by Content Service",
    );
    expect(await registerError(`strapi.server.api('other');`)).to.include(
      "strapi.server.api('other') is not supported by Content Service",
    );
  });
});

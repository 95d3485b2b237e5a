// A Strapi v4 project's route files (test/fixtures/core-routers-project): `createCoreRouter(uid,
// { prefix, only, except, config })` with per-action auth, policies and middlewares, custom routers
// in Strapi's order, their permissions, and start-up errors naming what is missing.
import { expect } from 'chai';
import request from 'supertest';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, WARN, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';

const PROJECT = fileURLToPath(new URL('../fixtures/core-routers-project', import.meta.url));

describe("a Strapi v4 project's route files", () => {
  let service: TestService;
  let lines: LogLine[];
  let jwt = '';
  const api = () => request(service.app);

  before(async () => {
    const capture = capturingLogger();
    lines = capture.lines;
    service = await createTestService({ appDir: PROJECT, logger: capture.logger });
    const registered = await api()
      .post('/api/auth/local/register')
      .send({ username: 'ada', email: 'ada@example.com', password: 'Password123!' })
      .expect(200);
    jwt = registered.body.jwt;
    for (const name of ['articles', 'notes', 'tags', 'memos', 'posts'])
      await service.context.connection
        .collection<{ _id: number; title: string }>(name)
        .insertOne({ _id: 1, title: 'One' });
  });
  after(() => service.close());

  it('answers an action left out by except as koa-router does a method a path lacks (405), and removes nothing', async () => {
    const res = await api().delete('/api/articles/1').set('Authorization', `Bearer ${jwt}`).expect(405);
    expect(res.text).to.equal('Method Not Allowed');
    expect(res.headers.allow).not.to.match(/DELETE/);
    await api().get('/api/articles').expect(200);
    expect(await service.context.connection.collection('articles').countDocuments()).to.equal(1);
  });

  it("answers another method on a custom route's own path 405 with the route's Allow, as koa-router does", async () => {
    expect((await api().post('/api/pings').expect(200)).body).to.deep.equal({ pong: true });
    const res = await api().put('/api/pings').expect(405);
    expect(res.text).to.equal('Method Not Allowed');
    expect(res.headers.allow).to.equal('POST');
    // a GET is the public files' (Strapi's `GET /(.*)`): an unknown file
    expect((await api().get('/api/pings').expect(404)).body.error.name).to.equal('NotFoundError');
    // a path no route has: the public files' route only
    expect((await api().post('/api/nothing-here').expect(405)).headers.allow).to.equal('HEAD, GET');
  });

  it('serves an action with auth: false to anyone, with no permission check', async () => {
    const res = await api().get('/api/articles/1').expect(200);
    expect(res.body.data).to.deep.include({ id: 1, attributes: res.body.data.attributes });
    expect(res.body.data.attributes.title).to.equal('One');
  });

  it('keeps the permission check of the actions without auth: false', async () => {
    const res = await api()
      .put('/api/articles/1')
      .send({ data: { title: 'Two' } })
      .expect(403);
    expect(res.body.error).to.include({ status: 403, name: 'ForbiddenError' });
  });

  it('answers a path whose every action is left out by only as an unknown route (404)', async () => {
    const res = await api().get('/api/notes/1').set('Authorization', `Bearer ${jwt}`).expect(404);
    expect(res.body).to.deep.include({ data: null });
    expect(res.body.error).to.include({ status: 404, name: 'NotFoundError' });
    await api()
      .post('/api/notes')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ data: { title: 'x' } })
      .expect(405);
    expect(await service.context.connection.collection('notes').countDocuments()).to.equal(1);
    await api().get('/api/notes').expect(200);
  });

  it("runs a core action's policy after the permission check, refusing as Strapi does (403 Forbidden)", async () => {
    await api().get('/api/tags').set('x-owner', 'yes').expect(403);
    const refused = await api().get('/api/tags').set('Authorization', `Bearer ${jwt}`).expect(403);
    expect(refused.body).to.deep.equal({
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} },
    });
    const res = await api().get('/api/tags').set('Authorization', `Bearer ${jwt}`).set('x-owner', 'yes').expect(200);
    expect(res.body.data).to.have.length(1);
  });

  it('opens an action with auth: false to anyone its policy lets through, under the router prefix', async () => {
    const res = await api().get('/api/v2/memos/1').set('x-owner', 'yes').expect(200);
    expect(res.body.data.attributes.title).to.equal('One');
    await api().get('/api/v2/memos/1').expect(403);
    await api().get('/api/memos/1').set('x-owner', 'yes').expect(404);
  });

  it("checks the permission an action's auth.scope names instead of its own", async () => {
    // the public role may find notes, not tags
    const res = await api().get('/api/tags/1').expect(200);
    expect(res.body.data.id).to.equal(1);
  });

  it("runs a core action's route middleware around it", async () => {
    const res = await api().get('/api/posts').expect(200);
    expect(res.headers['x-route-middleware']).to.equal('find');
    expect(res.body.data).to.have.length(1);
  });

  it('serves a custom route file before the core routes of a later file (GET /posts/:slug over /posts/:id)', async () => {
    const res = await api().get('/api/posts/1').expect(200);
    expect(res.body).to.deep.equal({ slug: '1', api: 'post' });
  });

  it("leaves to the core routes a request they match before a later file's route", async () => {
    const res = await api()
      .put('/api/posts/1')
      .send({ data: { title: 'Two' } })
      .expect(403);
    expect(res.body.error).to.include({ name: 'ForbiddenError' });
    expect(
      (await service.context.connection.collection<{ _id: number; title: string }>('posts').findOne({ _id: 1 }))?.title,
    ).to.equal('One');
  });

  it("puts a file's routes under its prefix, except those with a config.prefix of their own", async () => {
    expect((await api().get('/api/v3/late').expect(200)).body).to.deep.equal({ late: true });
    await api().get('/api/late').expect(404);
  });

  it('runs a policy with its config (a file Strapi names in kebab-case), and a route middleware that changes the answer', async () => {
    expect((await api().get('/api/checked?v=abc').expect(200)).body).to.deep.equal({ v: 'abc' });
    await api().get('/api/checked?v=other').expect(403);
    expect((await api().get('/api/wrapped-posts').expect(200)).body).to.deep.equal({ wrapped: true, count: 1 });
  });

  it("serves a core action on a path of its own, with the action's permission unless auth is false", async () => {
    expect((await api().get('/api/tags/featured').expect(200)).body.data).to.have.length(1);
    await api().get('/api/tag-list').expect(403);
    expect(
      (await api().get('/api/tag-list').set('Authorization', `Bearer ${jwt}`).expect(200)).body.data,
    ).to.have.length(1);
  });

  it('gives API tokens the permission of a custom route', async () => {
    let made = 0;
    const token = async (type: 'custom' | 'read-only' | 'full-access', actions?: string[]) =>
      (await createApiToken(service.context, { name: `token ${(made += 1)}`, type, actions })).accessKey;
    const tags = await token('custom', ['api::tag.tag.find']);
    const notes = await token('custom', ['api::note.note.find']);
    await api().get('/api/tag-list').set('Authorization', `Bearer ${tags}`).expect(200);
    await api().get('/api/tag-list').set('Authorization', `Bearer ${notes}`).expect(403);
    await api()
      .get('/api/tag-list')
      .set('Authorization', `Bearer ${await token('read-only')}`)
      .expect(200);
    // a function handler names no permission: a user or a full-access token, not the public
    await api().get('/api/me/posts').expect(401);
    expect((await api().get('/api/me/posts').set('Authorization', `Bearer ${jwt}`).expect(200)).body).to.deep.equal({
      user: 'ada',
    });
    await api()
      .get('/api/me/posts')
      .set('Authorization', `Bearer ${await token('full-access')}`)
      .expect(200);
    await api()
      .get('/api/me/posts')
      .set('Authorization', `Bearer ${await token('read-only')}`)
      .expect(403);
  });

  it("serves an api's admin-type router in the content API, as Strapi does, and no route of a file exporting a function", async () => {
    expect((await api().get('/api/post-admin').expect(200)).body).to.deep.equal({ admin: true });
    await api().get('/api/from-factory').expect(404);
    const warned = lines.filter((l) => l.level === WARN).map((l) => l.msg ?? '');
    expect(warned).to.include(
      'src/api/post/routes/factory.js exports a function: Strapi v4 does not call it, so its routes are not served (export the router object)',
    );
  });

  it("runs an action of the app's own controller named by a route", async () => {
    expect((await api().get('/api/tags-latest').expect(200)).body).to.deep.equal({ latest: true });
    // its permission api::tag.tag.latest: the authenticated role has it, the public one not
    await api().get('/api/tags/latest/guarded').expect(403);
    const res = await api().get('/api/tags/latest/guarded').set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(res.body).to.deep.equal({ latest: true });
  });

  it('lists no route file or policy among the code not run', async () => {
    const notice = lines.map((l) => l.msg ?? '').find((m) => m.startsWith('custom'));
    expect(notice ?? '').not.to.match(/\/routes\/|policies/);
  });
});

describe('a route file naming what the app does not have', () => {
  const project = (routeFile: string, controller?: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'route-files-'));
    cpSync(PROJECT, dir, { recursive: true });
    writeFileSync(join(dir, 'src', 'api', 'note', 'routes', 'broken.js'), routeFile);
    if (controller) {
      mkdirSync(join(dir, 'src', 'api', 'note', 'controllers'));
      writeFileSync(join(dir, 'src', 'api', 'note', 'controllers', 'mailer.js'), controller);
    }
    return dir;
  };
  const startFailure = async (appDir: string) => {
    try {
      const service = await createTestService({ appDir, logger: capturingLogger().logger });
      await service.close();
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    } finally {
      rmSync(appDir, { recursive: true, force: true });
    }
    return 'started';
  };

  it('stops start-up on a missing policy, naming the file, the route and the policy', async () => {
    const message = await startFailure(
      project(
        "module.exports = { routes: [{ method: 'GET', path: '/x', handler: () => 1, config: { policies: ['global::nope'] } }] };",
      ),
    );
    expect(message).to.include('src/api/note/routes/broken.js');
    expect(message).to.include('route GET /x: policy "global::nope" is not found: no file src/policies/nope.{ts,js}');
  });

  it('stops start-up on a route whose method Strapi does not take', async () => {
    const message = await startFailure(
      project("module.exports = { routes: [{ method: 'FETCH', path: '/z', handler: () => 1 }] };"),
    );
    expect(message).to.include(
      'src/api/note/routes/broken.js: route FETCH /z: method must be one of GET, POST, PUT, PATCH, DELETE, ALL',
    );
  });

  it('stops start-up on a handler naming no controller action', async () => {
    const message = await startFailure(
      project("module.exports = { routes: [{ method: 'GET', path: '/y', handler: 'note.nothing' }] };"),
    );
    expect(message).to.include('src/api/note/routes/broken.js');
    expect(message).to.include('route GET /y: handler not found "note.nothing": no such controller action in api note');
  });

  it('says so when the controller a handler names did not load', async () => {
    const message = await startFailure(
      project(
        "module.exports = { routes: [{ method: 'POST', path: '/send', handler: 'mailer.send' }] };",
        "require('a-package-not-installed'); module.exports = { send: () => 1 };",
      ),
    );
    expect(message).to.include(
      'route POST /send: handler not found "mailer.send": its controller src/api/note/controllers/mailer.js did not load',
    );
  });
});

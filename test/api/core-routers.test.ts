// A Strapi v4 project's `createCoreRouter(uid, { only, except, config })` route files
// (test/fixtures/core-routers-project): left-out actions are unknown routes, `auth: false` opens
// an action, policies not run yet are named at start-up, custom route files stay in the notice.
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { capturingLogger, WARN, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';

const PROJECT = fileURLToPath(new URL('../fixtures/core-routers-project', import.meta.url));

describe("a Strapi v4 project's createCoreRouter route files", () => {
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
    for (const name of ['articles', 'notes', 'tags', 'memos'])
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

  it('names at start-up the policies it does not run, and keeps the permission check there', async () => {
    const warned = lines.filter((l) => l.level === WARN).map((l) => l.msg ?? '');
    expect(warned).to.include(
      'src/api/tag/routes/tag.js: the policies and route middlewares of find are not run here (not supported yet); the permission check applies',
    );
    await api().get('/api/tags').expect(403);
    await api().get('/api/tags').set('Authorization', `Bearer ${jwt}`).expect(200);
  });

  it('does not open an action with auth: false whose policies it does not run', async () => {
    const res = await api().get('/api/memos/1').expect(403);
    expect(res.body.error).to.include({ status: 403, name: 'ForbiddenError' });
    expect(lines.map((l) => l.msg ?? '')).to.include(
      'src/api/memo/routes/memo.js: the policies and route middlewares of findOne are not run here (not supported yet); the permission check applies',
    );
  });

  it('lists the custom route file as not run, and no createCoreRouter file', async () => {
    const notice = lines.map((l) => l.msg ?? '').find((m) => m.startsWith('custom routes'));
    expect(notice).to.match(/src\/api\/tag\/routes\/custom-tag\.js$/);
    expect(notice).not.to.match(/routes\/(article|note|tag)\.js/);
  });
});

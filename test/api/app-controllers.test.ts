// A Strapi v4 project's own controllers and services (test/fixtures/controllers-project): core
// actions overridden over `super`, a custom action, a service override REST goes through, the
// output sanitized to the caller's permissions, errors in Strapi's shape, untouched content-types
// answered as before, and `strapi.service(uid)` custom methods from bootstrap.
import { runningStrapi } from '../../src/lifecycle/index.js';
import { expect } from 'chai';
import request from 'supertest';
import { fileURLToPath } from 'node:url';
import { createAppCode, loadAppCode } from '../../src/lifecycle/app-controllers.js';
import type { KoaContext } from '../../src/middlewares/koa-context.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';

const PROJECT = fileURLToPath(new URL('../fixtures/controllers-project', import.meta.url));

describe("a Strapi v4 project's controllers and services", () => {
  let service: TestService;
  let lines: LogLine[];
  const api = () => request(service.app);
  /** stores `docs` as they are, and moves the collection's id counter past them */
  const insert = async (collection: string, docs: Array<{ _id: number } & Record<string, unknown>>) => {
    const db = service.context.connection;
    await db.collection<{ _id: number } & Record<string, unknown>>(collection).insertMany(docs);
    const seq = Math.max(...docs.map((doc) => doc._id));
    await db
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id: collection }, { $max: { seq } }, { upsert: true });
  };

  before(async () => {
    const capture = capturingLogger();
    lines = capture.lines;
    service = await createTestService({ appDir: PROJECT, logger: capture.logger });
    const at = new Date('2026-01-01T00:00:00.000Z');
    const stamps = { createdAt: at, updatedAt: at };
    await insert('writers', [{ _id: 10, name: 'Ada', ...stamps }]);
    await insert('categories', [{ _id: 20, name: 'Hidden', ...stamps }]);
    await insert('articles', [
      { _id: 1, title: 'Beta', slug: 'beta', secret: 's1', writer: 10, category: 20, ...stamps },
      { _id: 2, title: 'Alpha', slug: 'alpha', secret: 's2', writer: null, category: null, ...stamps },
      { _id: 3, title: 'Gamma', slug: 'gamma', secret: 's3', writer: 10, category: null, ...stamps },
    ]);
    await insert('reviews', [
      { _id: 1, text: 'Great', rating: 5, internalNote: 'n1', category: 20, publishedAt: at, ...stamps },
      { _id: 2, text: 'Bad', rating: 1, internalNote: 'n2', category: null, publishedAt: at, ...stamps },
      { _id: 3, text: 'Fine', rating: 3, internalNote: 'n3', category: null, publishedAt: at, ...stamps },
      { _id: 4, text: 'Draft', rating: 4, internalNote: 'n4', category: null, publishedAt: null, ...stamps },
    ]);
    await insert('notes', [{ _id: 1, title: 'Plain', ...stamps }]);
  });
  after(() => service.close());

  it('runs an overridden find whose super.find reads the changed ctx.query, within the caller permissions', async () => {
    const res = await api().get('/api/articles').expect(200);
    expect(res.body.data.map((a: { attributes: { title: string } }) => a.attributes.title)).to.deep.equal([
      'Alpha',
      'Beta',
      'Gamma',
    ]);
    expect(res.body.meta).to.deep.equal({
      pagination: { page: 1, pageSize: 25, pageCount: 1, total: 3 },
      sortedBy: 'title',
    });
    const beta = res.body.data[1].attributes;
    expect(beta.writer).to.deep.equal({
      data: {
        id: 10,
        attributes: { name: 'Ada', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
      },
    });
    // the public may not read categories: the populate the app added is left out, as on REST
    expect(beta).not.to.have.property('category');
    expect(beta).not.to.have.property('secret');
  });

  it('runs a custom findOne by slug; sanitizeOutput drops the private field and the forbidden relation', async () => {
    const res = await api().get('/api/articles/beta').expect(200);
    expect(res.body).to.deep.equal({
      data: {
        id: 1,
        attributes: {
          title: 'Beta',
          slug: 'beta',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
          writer: {
            data: {
              id: 10,
              attributes: { name: 'Ada', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
            },
          },
        },
      },
      meta: {},
    });
    const missing = await api().get('/api/articles/nope').expect(404);
    expect(missing.body).to.deep.equal({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'No article with this slug', details: { slug: 'nope' } },
    });
  });

  it('answers an error the app throws in Strapi shape, and writes nothing', async () => {
    const invalid = await api()
      .post('/api/articles')
      .send({ data: { slug: 'x' } })
      .expect(400);
    expect(invalid.body).to.deep.equal({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'A title is required', details: { field: 'title' } },
    });
    const crash = await api()
      .post('/api/articles')
      .send({ data: { title: 'crash' } })
      .expect(500);
    expect(crash.body.error).to.include({ status: 500, name: 'InternalServerError', message: 'Internal Server Error' });
    const refused = await api().delete('/api/articles/1').expect(400);
    expect(refused.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'BadRequestError',
        message: 'Articles are archived, not deleted',
        details: { id: '1' },
      },
    });
    expect(await service.context.connection.collection('articles').countDocuments()).to.equal(3);
  });

  it('runs super.create after the app check, with the caller permissions', async () => {
    const res = await api()
      .post('/api/articles')
      .send({ data: { title: 'Delta', slug: 'delta' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes).to.include({ title: 'Delta', slug: 'delta' });
    expect(res.body.meta).to.deep.equal({});
    await service.context.connection.collection('articles').deleteOne({ slug: 'delta' });
  });

  it('still checks the permission of a core action before the app controller runs', async () => {
    const res = await api()
      .put('/api/articles/1')
      .send({ data: { title: 'Changed' } })
      .expect(403);
    expect(res.body.error).to.include({ status: 403, name: 'ForbiddenError' });
  });

  it('goes through the app service override on REST: its filters, its fields, sanitized output, live entries', async () => {
    const res = await api().get('/api/reviews').expect(200);
    expect(res.body.data.map((r: { id: number }) => r.id)).to.deep.equal([1, 3]);
    const great = res.body.data[0].attributes;
    expect(great).to.include({ text: 'Great', rating: 5, score: 50 });
    expect(great).not.to.have.property('internalNote');
    expect(great).not.to.have.property('category');
    expect(res.body.meta).to.deep.equal({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } });
    // findOne is not overridden: the direct operation, as before
    const one = await api().get('/api/reviews/2').expect(200);
    expect(one.body.data.attributes).to.include({ text: 'Bad', rating: 1 });
    await api().get('/api/reviews/4').expect(404);
  });

  it('runs a custom action through strapi.controller, with a custom service method', async () => {
    const res = await api().get('/api/articles-featured?limit=2').expect(200);
    expect(res.body).to.deep.equal({ data: ['Gamma', 'Beta'] });
  });

  it("validates a query's fields and populate at any depth (validateQuery) and sanitizes it into a deep copy", async () => {
    const ok = await api().get('/api/articles-checked?filters[title][$eq]=Alpha&populate[writer][fields][0]=name');
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body).to.deep.equal({ title: 'Alpha' });
    for (const query of ['fields[0]=nope', 'populate[writer][fields][0]=nope']) {
      const res = await api().get(`/api/articles-checked?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.name, query).to.equal('ValidationError');
    }
  });

  it('runs a plain TypeScript controller module, its service calls and its ctx.body', async () => {
    const res = await api().get('/api/hello?name=Ada').expect(200);
    expect(res.body).to.deep.equal({ hello: 'Ada', averageRating: 3.25 });
  });

  it("refuses, as REST does, a client's filter through a relation the caller may not read, also where the service takes part", async () => {
    for (const query of ['filters[category][name]=Hidden', 'sort=category.name']) {
      const res = await api().get(`/api/reviews?${query}`).expect(400);
      expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    }
  });

  it('runs Strapi steps when a helper is overridden: flat entries transformed into the same envelope', async () => {
    const res = await api().get('/api/writers?filters[name]=Ada').expect(200);
    expect(res.body).to.deep.equal({
      data: [
        {
          id: 10,
          attributes: { name: 'Ada', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
        },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 }, via: 'transformResponse' },
    });
  });

  it('ran a custom service method from bootstrap', async () => {
    const res = await api().get('/api/writers?sort=name').expect(200);
    expect(res.body.data.map((w: { attributes: { name: string } }) => w.attributes.name)).to.deep.equal([
      'Ada',
      'Made at bootstrap',
    ]);
  });

  it('runs an overridden single-type find over super.find', async () => {
    const empty = await api().get('/api/page').expect(200);
    expect(empty.body).to.deep.equal({ data: null, meta: { empty: true } });
    await insert('pages', [{ _id: 1, heading: 'Welcome', createdAt: new Date(), updatedAt: new Date() }]);
    const res = await api().get('/api/page').expect(200);
    expect(res.body.data.attributes.heading).to.equal('Welcome');
    expect(res.body.meta).to.deep.equal({ singleType: true });
    // update goes through the app's createOrUpdate, the body's id and timestamps left out
    const put = await api()
      .put('/api/page')
      .send({ data: { heading: 'hello', id: 7, createdAt: '2000-01-01T00:00:00.000Z' } })
      .expect(200);
    expect(put.body.data).to.include({ id: 1 });
    expect(put.body.data.attributes.heading).to.equal('HELLO');
    expect(put.body.data.attributes.createdAt).not.to.equal('2000-01-01T00:00:00.000Z');
    expect(await service.context.connection.collection('pages').countDocuments()).to.equal(1);
  });

  it('answers untouched content-types as before (generated controller and service)', async () => {
    const res = await api().get('/api/notes').expect(200);
    expect(res.body).to.deep.equal({
      data: [
        {
          id: 1,
          attributes: { title: 'Plain', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
        },
      ],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    });
    const missing = await api().get('/api/notes/9').expect(404);
    expect(missing.body.error).to.include({ status: 404, name: 'NotFoundError' });
  });

  it('lists the custom actions in the role permission catalogue', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'catalogue', type: 'full-access' });
    const res = await api()
      .get('/api/users-permissions/permissions')
      .set('Authorization', `Bearer ${accessKey}`)
      .expect(200);
    const article = res.body.permissions['api::article'].controllers.article;
    expect(Object.keys(article)).to.include.members(['find', 'findOne', 'featured']);
    expect(res.body.permissions['api::hello'].controllers.hello).to.deep.equal({
      index: { enabled: false, policy: '' },
    });
  });

  it('gives route handlers named by a string as Koa middlewares (controllerHandler)', async () => {
    const strapi = runningStrapi();
    const code = createAppCode(await loadAppCode(PROJECT, () => {}), {
      service: service.context,
      strapi: () => strapi,
    });
    const run = async (name: string, api: string, ctx: Record<string, unknown>) => {
      const handler = code.controllerHandler(name, api);
      if (!handler) throw new Error(`no handler ${name}`);
      return handler(ctx as unknown as KoaContext, async () => undefined);
    };
    expect(await run('article.featured', 'article', { query: { limit: '1' } })).to.deep.equal({ data: ['Gamma'] });
    const found = (await run('api::note.note.find', 'other', { query: {} })) as { data: unknown[] };
    expect(found.data).to.have.length(1);
    const hello: Record<string, unknown> = { query: {} };
    await run('api::hello.hello.index', 'article', hello);
    expect(hello.body).to.deep.equal({ hello: 'world', averageRating: 3.25 });
    for (const unknown of ['article.nope', 'nothing.find', 'plugin::users-permissions.auth.callback', 'find'])
      expect(code.controllerHandler(unknown, 'article'), unknown).to.equal(undefined);
  });

  it('no longer names the controllers and services as not run', () => {
    const notice = lines.map((l) => l.msg ?? '').find((m) => /not run here/.test(m));
    expect(notice).to.equal(undefined);
  });
});

describe('controllers and services that cannot be made stop start-up naming the file', () => {
  it('a factory that throws', async () => {
    const message = await startUpError({
      'src/api/note/controllers/note.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::note.note', () => { throw new Error('no config'); });`,
    });
    expect(message).to.equal('src/api/note/controllers/note.js: making the controller failed: no config');
  });

  it('a core controller naming no content-type (Strapi makes every controller at start-up)', async () => {
    const message = await startUpError({
      'src/api/note/controllers/note.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::nope.nope');`,
    });
    expect(message).to.equal(
      "src/api/note/controllers/note.js: create-core-controller('api::nope.nope') names no content-type of this app",
    );
  });

  it('but not a core service naming no content-type: it fails when used, as Strapi makes services when asked for', async () => {
    const service = `module.exports = require('@strapi/strapi').factories.createCoreService('api::nope.nope', {});`;
    expect(await startUpError({ 'src/api/note/services/note.js': service })).to.equal('started');
    const message = await startUpError({
      'src/api/note/services/note.js': service,
      'src/index.js': `module.exports = { bootstrap({ strapi }) { strapi.service('api::note.note'); } };`,
    });
    expect(message).to.include(
      "src/api/note/services/note.js: create-core-service('api::nope.nope') names no content-type of this app",
    );
  });
});

// What a response-cache plugin (strapi-plugin-rest-cache) reads and does in its bootstrap, done here
// by a project's own code: the REST prefix from `strapi.config` (Strapi's default, no config/api
// file), every content-API route from `strapi.server.listRoutes()` and `api('content-api')` (core
// routes with and without a route file, custom routes, users-permissions'), an empty
// `api('admin').listRoutes()`, then a Koa router of its own mounted on `strapi.server.router` whose
// middlewares wrap the core routes: a GET answered from its cache, a PUT that purges it.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const collection = (singularName: string, pluralName: string) =>
  JSON.stringify({
    kind: 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  });

const FILES = {
  'package.json': JSON.stringify({
    name: 'cached-project',
    version: '1.2.3',
    strapi: { uuid: 'abc', telemetryDisabled: true },
  }),
  'config/permissions.json': JSON.stringify({
    public: ['api::course.course.find', 'api::course.course.update', 'api::lesson.lesson.find'],
  }),
  'src/api/course/content-types/course/schema.json': collection('course', 'courses'),
  'src/api/course/routes/course.js':
    "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::course.course', { config: { update: { auth: false } } });",
  'src/api/course/routes/extra.js': `module.exports = { routes: [{ method: 'GET', path: '/courses-report', handler: 'course.report', config: { auth: false } }] };`,
  'src/api/course/controllers/course.js': `module.exports = require('@strapi/strapi').factories.createCoreController('api::course.course', ({ strapi }) => ({
  report() {
    const prefix = strapi.config.get('api.rest.prefix');
    return {
      prefix,
      info: strapi.config.get('info'),
      uuid: strapi.config.get('uuid'),
      packageJsonStrapi: strapi.config.get('packageJsonStrapi'),
      serveAdminPanel: strapi.config.get('serveAdminPanel'),
      cron: strapi.config.get('server.cron'),
      all: strapi.server.listRoutes().map((route) => route.methods.join(',') + ' ' + route.path),
      contentApi: strapi.server.api('content-api').listRoutes().map((route) => route.methods.join(',') + ' ' + route.path),
      admin: strapi.server.api('admin').listRoutes(),
    };
  },
}));`,
  // no route file: the core routes are the service's own
  'src/api/lesson/content-types/lesson/schema.json': collection('lesson', 'lessons'),
  'src/index.js': `const cache = new Map();
module.exports = {
  bootstrap({ strapi }) {
    const prefix = strapi.config.get('api.rest.prefix');
    const listed = strapi.server.listRoutes();
    const exists = (method, path) => listed.some((route) => route.methods.includes(method) && route.path === prefix + path);
    const Router = strapi.server.router.constructor;
    const router = new Router();
    if (exists('GET', '/courses'))
      router.get(prefix + '/courses', async (ctx, next) => {
        const key = ctx.url;
        if (cache.has(key)) {
          ctx.set('X-Cache', 'HIT');
          ctx.body = cache.get(key);
          return;
        }
        await next();
        ctx.set('X-Cache', 'MISS');
        if (ctx.status === 200) cache.set(key, ctx.body);
      });
    if (exists('PUT', '/courses/:id'))
      router.put(prefix + '/courses/:id', async (ctx, next) => {
        await next();
        if (ctx.status === 200) cache.clear();
      });
    strapi.server.router.use(router.routes());
  },
};`,
};

describe('a response-cache plugin built on strapi.server.listRoutes() and strapi.server.router', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-route-cache-'));
    await writeFiles(appDir, FILES);
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("finds Strapi's configuration defaults and the package's details in strapi.config", async () => {
    const res = await request(service.app).get('/api/courses-report').expect(200);
    expect(res.body).to.deep.include({
      prefix: '/api',
      uuid: 'abc',
      packageJsonStrapi: { telemetryDisabled: true },
      serveAdminPanel: false,
      cron: { enabled: false },
    });
    expect(res.body.info).to.include({ name: 'cached-project', version: '1.2.3', strapi: '4.26.2' });
  });

  it('lists every content-API route the service serves, and no admin route', async () => {
    const res = await request(service.app).get('/api/courses-report').expect(200);
    const expected = [
      'HEAD,GET /api/courses',
      'HEAD,GET /api/courses/:id',
      'POST /api/courses',
      'PUT /api/courses/:id',
      'DELETE /api/courses/:id',
      'HEAD,GET /api/courses-report',
      'HEAD,GET /api/lessons',
      'DELETE /api/lessons/:id',
      'POST /api/auth/local',
      'HEAD,GET /api/users/me',
    ];
    expect(res.body.contentApi).to.include.members(expected);
    expect(res.body.all).to.include.members(expected);
    expect(res.body.admin).to.deep.equal([]);
  });

  it('serves a GET from the cache its middleware holds, and a PUT through it purges it', async () => {
    const created = await service.context.connection
      .collection<{ _id: number; title: string }>('courses')
      .insertOne({ _id: 1, title: 'first' });
    expect(created.acknowledged).to.equal(true);
    const miss = await request(service.app).get('/api/courses').expect(200);
    expect(miss.headers['x-cache']).to.equal('MISS');
    expect(miss.body.data[0].attributes.title).to.equal('first');
    const hit = await request(service.app).get('/api/courses').expect(200);
    expect(hit.headers['x-cache']).to.equal('HIT');
    expect(hit.body).to.deep.equal(miss.body);

    await request(service.app)
      .put('/api/courses/1')
      .send({ data: { title: 'second' } })
      .expect(200);
    const after = await request(service.app).get('/api/courses').expect(200);
    expect(after.headers['x-cache']).to.equal('MISS');
    expect(after.body.data[0].attributes.title).to.equal('second');
  });
});

// Installed plugins that reach into `strapi.api` and `strapi.auth`, with the contracts of two npm
// plugins (written for this test): strapi-plugin-transformer, whose register hook walks
// `strapi.api[<api>].routes` and pushes a route middleware onto every route (here one that flattens
// `attributes`), and strapi-plugin-slugify, whose controller and GraphQL query check the caller
// with `strapi.auth.verify(ctx.state.auth, { scope: '<uid>.find' })`, sanitize with @strapi/utils'
// `sanitize.contentAPI.output` and name their union with the GraphQL `utils` service; the settings
// its extension reads are built in its bootstrap, before the GraphQL schema is (Strapi's plugin order).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const pluginPackage = (name: string, pluginName: string) =>
  json({ name, version: '1.0.0', strapi: { name: pluginName, kind: 'plugin' } });

const FLATTEN_SERVER = `'use strict';
const flatten = (entry) => (entry && entry.attributes ? { id: entry.id, ...entry.attributes } : entry);
module.exports = {
  register({ strapi }) {
    for (const [apiName, api] of Object.entries(strapi.api)) {
      const uid = api.contentTypes[apiName] ? api.contentTypes[apiName].uid : apiName;
      for (const router of Object.values(api.routes)) {
        for (const route of router.routes) {
          route.config = route.config || {};
          route.config.middlewares = route.config.middlewares || [];
          route.config.middlewares.push(async (ctx, next) => {
            await next();
            if (!ctx.body || !ctx.body.data) return;
            ctx.set('X-Flattened', uid);
            const data = ctx.body.data;
            ctx.body.data = Array.isArray(data) ? data.map(flatten) : flatten(data);
          });
        }
      }
    }
  },
};
`;

const LOOKUP_SERVER = `'use strict';
const { sanitize } = require('@strapi/utils');
const { ForbiddenError } = require('@strapi/utils').errors;
let settings;
const lookUp = async (strapi, model, slug, auth) => {
  const uid = settings[model];
  await strapi.auth.verify(auth, { scope: uid + '.find' });
  const [entry] = await strapi.entityService.findMany(uid, { filters: { slug }, populate: '*' });
  return entry ? { uid, entry: await sanitize.contentAPI.output(entry, strapi.contentType(uid), { auth }) } : { uid };
};
module.exports = {
  register({ strapi }) {
    strapi.auth.register('content-api', { name: 'lookup-key', authenticate: () => ({ authenticated: false }) });
    strapi.auth.register('admin', { name: 'panel-key', authenticate: () => ({ authenticated: false }) });
    strapi.plugin('graphql').service('extension').use(({ nexus }) => {
      const { naming } = strapi.plugin('graphql').service('utils');
      const { toEntityResponse } = strapi.plugin('graphql').service('format').returnTypes;
      const members = Object.values(settings).map((uid) => naming.getEntityResponseName(strapi.contentTypes[uid]));
      const byType = Object.fromEntries(Object.values(settings).map((uid) => [uid, naming.getEntityResponseName(strapi.contentTypes[uid])]));
      return {
        types: [
          nexus.unionType({
            name: 'LookupResponse',
            definition(t) { t.members(...members); },
            resolveType: (value) => byType[value.info.resourceUID],
          }),
          nexus.extendType({
            type: 'Query',
            definition(t) {
              t.field('lookup', {
                type: 'LookupResponse',
                args: { model: nexus.stringArg(), slug: nexus.stringArg() },
                async resolve(_parent, args, ctx) {
                  try {
                    const found = await lookUp(strapi, args.model, args.slug, ctx.state.auth);
                    return toEntityResponse(found.entry || null, { args, resourceUID: found.uid });
                  } catch (err) {
                    throw new ForbiddenError();
                  }
                },
              });
            },
          }),
        ],
        resolversConfig: { 'Query.lookup': { auth: false } },
      };
    });
  },
  bootstrap({ strapi }) {
    settings = { article: 'api::article.article' };
  },
  controllers: {
    lookup: ({ strapi }) => ({
      async find(ctx) {
        let found;
        try {
          found = await lookUp(strapi, ctx.params.model, ctx.params.slug, ctx.state.auth);
        } catch (err) {
          return ctx.forbidden();
        }
        if (!found.entry) return ctx.notFound();
        ctx.body = { data: found.entry };
      },
    }),
  },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [{ method: 'GET', path: '/:model/:slug', handler: 'lookup.find' }],
    },
  },
};
`;

const schema = (singularName: string, pluralName: string, attributes: Record<string, unknown>) =>
  json({ kind: 'collectionType', info: { singularName, pluralName, displayName: singularName }, attributes });

describe('installed plugins using strapi.api and strapi.auth (the contracts of strapi-plugin-transformer and -slugify)', () => {
  let service: TestService;
  let warnings: string[];
  const api = () => request(service.app);

  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-strapi-api-'));
    await writeFiles(appDir, {
      'package.json': json({ name: 'app', dependencies: { 'acme-flatten': '1.0.0', 'acme-lookup': '1.0.0' } }),
      'node_modules/acme-flatten/package.json': pluginPackage('acme-flatten', 'flatten'),
      'node_modules/acme-flatten/strapi-server.js': FLATTEN_SERVER,
      'node_modules/acme-lookup/package.json': pluginPackage('acme-lookup', 'lookup'),
      'node_modules/acme-lookup/strapi-server.js': LOOKUP_SERVER,
      'src/api/article/content-types/article/schema.json': schema('article', 'articles', {
        title: { type: 'string' },
        slug: { type: 'uid', targetField: 'title' },
        writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer' },
      }),
      'src/api/article/routes/article.js':
        "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::article.article');",
      'src/api/writer/content-types/writer/schema.json': schema('writer', 'writers', { name: { type: 'string' } }),
      'config/permissions.json': json({
        public: [
          'api::article.article.find',
          'api::article.article.findOne',
          'api::article.article.create',
          'plugin::lookup.lookup.find',
        ],
      }),
    });
    const logs = capturingLogger();
    service = await createTestService({ appDir, logger: logs.logger });
    warnings = logs.lines.filter((line) => line.level === WARN).map((line) => String(line.msg));
    const running = runningStrapi()!;
    const writer = (await running.entityService.create('api::writer.writer', { data: { name: 'Ann' } })) as {
      id: number;
    };
    await running.entityService.create('api::article.article', {
      data: { title: 'Hello', slug: 'hello', writer: writer.id },
    });
  });
  after(() => service.close());

  it("gives register the apis' route files' routers, whose routes are served as it changed them", async () => {
    const list = await api().get('/api/articles').expect(200);
    expect(list.headers['x-flattened']).to.equal('api::article.article');
    expect(list.body.data[0]).to.include({ id: 1, title: 'Hello', slug: 'hello' });
    const one = await api().get('/api/articles/1').expect(200);
    expect(one.body.data).to.include({ id: 1, title: 'Hello' });
    // an api without a route file of its own has no routers to walk
    const running = runningStrapi()!;
    expect(Object.keys(running.api).sort()).to.deep.equal(['article', 'writer']);
    expect(running.api.writer!.routes).to.deep.equal({});
    expect(running.api.article!.contentTypes.article!.uid).to.equal('api::article.article');
  });

  it("verifies the caller's scope through strapi.auth.verify, and sanitizes relations the caller may not read", async () => {
    const found = await api().get('/api/lookup/article/hello').expect(200);
    expect(found.body.data).to.include({ id: 1, title: 'Hello', slug: 'hello' });
    // the public role may not find writers: @strapi/utils' sanitize drops the relation
    expect(found.body.data).not.to.have.property('writer');
    const { accessKey } = await createApiToken(service.context, { name: 'all', type: 'full-access' });
    const full = await api().get('/api/lookup/article/hello').set('Authorization', `Bearer ${accessKey}`).expect(200);
    expect(full.body.data.writer).to.include({ id: 1, name: 'Ann' });
    await api().get('/api/lookup/article/nope').expect(404);
    // as Strapi's: no auth is a 401 unless the config is false
    const running = runningStrapi()!;
    await running.auth.verify(undefined, false);
    const refused = await running.auth.verify(undefined).catch((err: Error) => err);
    expect((refused as Error).name).to.equal('UnauthorizedError');
  });

  it("answers the plugin's GraphQL union, named with the utils service, from settings its bootstrap built", async () => {
    const res = await api()
      .post('/graphql')
      .send({
        query:
          '{ lookup(model: "article", slug: "hello") { __typename ... on ArticleEntityResponse { data { id attributes { title } } } } }',
      })
      .expect(200);
    expect(res.body).to.deep.equal({
      data: { lookup: { __typename: 'ArticleEntityResponse', data: { id: '1', attributes: { title: 'Hello' } } } },
    });
  });

  it("says once that an admin authentication strategy is not asked (a content-API one is, after Strapi's own)", () => {
    expect(warnings.filter((line) => line.startsWith('strapi.auth.register('))).to.deep.equal([
      "strapi.auth.register('admin', \"panel-key\"): Content Service serves only the content API ('content-api'); this strategy is kept but never asked",
    ]);
  });
});

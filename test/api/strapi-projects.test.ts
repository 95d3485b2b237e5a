import { expect } from 'chai';
import request from 'supertest';
import { ConfigError } from '../../src/config/index.js';
import { gql } from '../graphql/helpers.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import {
  javascriptProject,
  PROJECT_VARIABLES,
  typescriptProject,
  withEnvironment,
} from '../helpers/strapi-projects.js';
import { writeTempProject } from '../helpers/temp-app.js';

describe('a Strapi v4 TypeScript project, unchanged, in production', () => {
  let service: TestService;
  let lines: Array<Record<string, unknown>>;
  let jwt: string;
  before(async () => {
    const appDir = await writeTempProject(typescriptProject({ PUBLIC_URL: 'https://blog.example' }));
    const captured = capturingLogger();
    lines = captured.lines;
    service = await withEnvironment('production', PROJECT_VARIABLES, () =>
      createTestService({ appDir, logger: captured.logger }),
    );
  });
  after(() => service.close());

  it('reads the .ts configs with the env helper, .env and config/env/production', () => {
    const { config } = service.context;
    expect(config.env).to.equal('production');
    expect(config.api.rest).to.include({ prefix: '/api', defaultLimit: 5, maxLimit: 50, withCount: true });
    expect(config.server).to.include({ url: 'https://blog.example', proxy: true, port: 1337 });
    expect(config.plugins['users-permissions']?.config.jwtSecret).to.equal('project-jwt-secret');
    expect(config.admin.apiTokenSalt).to.equal('tobemodified');
  });

  it('logs, once, the keys it does not use, and runs the bootstrap of src/index.ts', () => {
    const ignored = lines.filter((l) => String(l.msg).startsWith('configuration not used by Content Service'));
    expect(ignored).to.have.length(1);
    expect(ignored[0]?.ignored).to.include.members([
      'admin.auth',
      'admin.transfer',
      'admin.flags',
      'database.connection',
      'server.webhooks.populateRelations',
    ]);
    expect(lines.map((l) => l.msg)).to.include('bootstrap: category mutations off, 2 app keys');
  });

  it('drives REST CRUD with a JWT from POST /api/auth/local', async () => {
    await request(service.app)
      .post('/api/auth/local/register')
      .send({ username: 'editor', email: 'editor@example.org', password: 'Password123!' })
      .expect(200);
    const login = await request(service.app)
      .post('/api/auth/local')
      .send({ identifier: 'editor@example.org', password: 'Password123!' })
      .expect(200);
    jwt = login.body.jwt as string;
    const auth = { Authorization: `Bearer ${jwt}` };
    const category = await request(service.app)
      .post('/api/categories')
      .set(auth)
      .send({ data: { name: 'News' } })
      .expect(200);
    const created = await request(service.app)
      .post('/api/articles')
      .set(auth)
      .send({
        data: {
          title: 'Hello',
          slug: 'hello',
          body: 'one two three',
          category: category.body.data.id,
          seo: { metaTitle: 'Hello!' },
        },
      })
      .expect(200);
    const id = created.body.data.id as number;
    await request(service.app)
      .put(`/api/articles/${id}`)
      .set(auth)
      .send({ data: { title: 'Hello again' } })
      .expect(200);
    const read = await request(service.app).get(`/api/articles/${id}?populate=*`).expect(200);
    expect(read.body.data.attributes).to.include({ title: 'Hello again', slug: 'hello' });
    expect(read.body.data.attributes.category.data.attributes.name).to.equal('News');
    expect(read.body.data.attributes.seo).to.include({ metaTitle: 'Hello!' });
    const list = await request(service.app).get('/api/articles').expect(200);
    expect(list.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 5, pageCount: 1, total: 1 });
    await request(service.app)
      .post('/api/articles')
      .send({ data: { title: 'anonymous' } })
      .expect(403);
    await request(service.app).delete(`/api/articles/${id}`).set(auth).expect(200);
    await request(service.app).get(`/api/articles/${id}`).expect(404);
  });

  it('serves GraphQL with what src/index.ts registered: no category mutations, the added resolvers', async () => {
    const categories = await request(service.app).get('/api/categories').expect(200);
    const categoryId = categories.body.data[0].id as number;
    await request(service.app)
      .post('/api/articles')
      .set('Authorization', `Bearer ${jwt}`)
      .send({
        data: {
          title: 'Graph',
          slug: 'graph',
          body: 'word '.repeat(450),
          category: categoryId,
          seo: { metaTitle: 'G' },
        },
      })
      .expect(200);
    // a field added to an entity type reads the attributes selected beside it (here body)
    const read = await gql(service, '{ siteName articles { data { attributes { title body readingTime } } } }');
    expect(read.body.errors).to.equal(undefined);
    expect(read.body.data?.siteName).to.equal('https://blog.example');
    expect(read.body.data?.articles).to.deep.equal({
      data: [{ attributes: { title: 'Graph', body: 'word '.repeat(450), readingTime: 3 } }],
    });
    // a custom resolver reading with strapi.entityService, answering through the format service
    const bySlug = await gql(
      service,
      '{ articleBySlug(slug: "graph") { data { attributes { title readingTime category { data { id } } seo { metaTitle } } } } }',
    );
    expect(bySlug.body.errors).to.equal(undefined);
    expect(bySlug.body.data).to.deep.equal({
      articleBySlug: {
        data: {
          attributes: {
            title: 'Graph',
            readingTime: 3,
            category: { data: { id: String(categoryId) } },
            seo: { metaTitle: 'G' },
          },
        },
      },
    });
    const missing = await gql(service, '{ articleBySlug(slug: "nope") { data { id } } }');
    expect(missing.body.data).to.deep.equal({ articleBySlug: { data: null } });
    const mutation = await gql(
      service,
      'mutation { createCategory(data: { name: "x" }) { data { id } } }',
      undefined,
      jwt,
    );
    expect(mutation.status).to.equal(400);
    expect(mutation.body.errors?.[0]?.message).to.match(/Cannot query field "createCategory"/);
    const created = await gql(
      service,
      'mutation { createArticle(data: { title: "By GraphQL", slug: "by-graphql" }) { data { id attributes { title } } } }',
      undefined,
      jwt,
    );
    expect(created.body.errors).to.equal(undefined);
  });

  it('answers the cors origin list of config/middlewares.ts', async () => {
    const allowed = await request(service.app).get('/api/articles').set('Origin', 'http://localhost:3000').expect(200);
    expect(allowed.headers['access-control-allow-origin']).to.equal('http://localhost:3000');
    const refused = await request(service.app)
      .get('/api/articles')
      .set('Origin', 'http://elsewhere.example')
      .expect(200);
    expect(refused.headers).not.to.have.property('access-control-allow-origin');
    const robots = await request(service.app).get('/robots.txt').expect(200);
    expect(robots.text).to.match(/^# To prevent search engines/);
  });
});

describe('a Strapi v4 JavaScript (CommonJS) project with a REST prefix, providers and cron', () => {
  let service: TestService;
  let lines: Array<Record<string, unknown>>;
  before(async () => {
    const appDir = await writeTempProject(javascriptProject());
    const captured = capturingLogger();
    lines = captured.lines;
    service = await createTestService({ appDir, logger: captured.logger });
  });
  after(() => service.close());

  it('serves the content API under api.rest.prefix, and the global strapi in src/index.js', async () => {
    await request(service.app).get('/api/articles').expect(404);
    const list = await request(service.app).get('/v1/articles').expect(200);
    expect(list.body.meta.pagination.pageSize).to.equal(25);
    const register = await request(service.app)
      .post('/v1/auth/local/register')
      .send({ username: 'legacy', email: 'legacy@example.org', password: 'Password123!' })
      .expect(200);
    const created = await request(service.app)
      .post('/v1/articles')
      .set('Authorization', `Bearer ${register.body.jwt as string}`)
      .send({ data: { title: 'Legacy', slug: 'legacy' } })
      .expect(200);
    expect(created.body.data.attributes.title).to.equal('Legacy');
    const graph = await gql(service, '{ articles { data { attributes { title } } meta { pagination { pageSize } } } }');
    expect(graph.body.data).to.deep.equal({
      articles: { data: [{ attributes: { title: 'Legacy' } }], meta: { pagination: { pageSize: 10 } } },
    });
    expect(lines.map((l) => l.msg)).to.include('legacy bootstrap on /v1');
  });

  it('keeps what the bootstrap did with strapi.entityService and strapi.db.query', async () => {
    const categories = await request(service.app).get('/v1/categories').expect(200);
    const seeded = (categories.body.data as Array<{ id: number; attributes: { name: string } }>).find(
      (c) => c.attributes.name === 'Seeded',
    );
    expect(seeded).to.not.equal(undefined);
    // findOne was not in config/permissions.json: the bootstrap granted it to the public role
    const one = await request(service.app).get(`/v1/categories/${seeded?.id}`).expect(200);
    expect(one.body.data.attributes.name).to.equal('Seeded');
  });

  it('serves the nexus types src/index.js registered (objectType, extendType, t.json, context.state)', async () => {
    const anonymous = await gql(
      service,
      '{ greeting { text meta } articles { data { attributes { title titleLength } } } }',
    );
    expect(anonymous.body.errors).to.equal(undefined);
    expect(anonymous.body.data).to.deep.equal({
      greeting: { text: 'hello visitor', meta: { strategy: 'public' } },
      articles: { data: [{ attributes: { title: 'Legacy', titleLength: 6 } }] },
    });
    // resolvers the extension gives apart for fields its nexus types add
    const apart = await gql(service, '{ articleTotal articles { data { attributes { shout } } } }');
    expect(apart.body.errors).to.equal(undefined);
    expect(apart.body.data).to.deep.equal({
      articleTotal: 1,
      articles: { data: [{ attributes: { shout: 'LEGACY' } }] },
    });
    const login = await request(service.app)
      .post('/v1/auth/local')
      .send({ identifier: 'legacy', password: 'Password123!' })
      .expect(200);
    const named = await gql(service, '{ greeting { text meta } }', undefined, login.body.jwt as string);
    expect(named.body.data).to.deep.equal({
      greeting: { text: 'hello legacy', meta: { strategy: 'users-permissions' } },
    });
    // a resolver using the older plugin API: strapi.plugins['users-permissions'].services.jwt
    const refreshed = await gql(service, '{ refreshToken }', undefined, login.body.jwt as string);
    const token = String(refreshed.body.data?.refreshToken);
    const me = await request(service.app).get('/v1/users/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.username).to.equal('legacy');
  });

  it('lists the keys it ignores (not the cron tasks config/server.js runs), and keeps the security config', async () => {
    const ignored = lines.find((l) => String(l.msg).startsWith('configuration not used by Content Service'));
    expect(ignored?.ignored).to.include.members(['admin.auth', 'database.connection']);
    expect(ignored?.ignored).not.to.include('cron-tasks');
    const res = await request(service.app).get('/v1/articles').expect(200);
    expect(String(res.headers['content-security-policy'])).to.include("img-src 'self' data: blob: res.cloudinary.com");
  });
});

describe("the app's code asking for a plugin the service does not have", () => {
  it("`if (strapi.plugin('documentation'))` is false, as in Strapi: the app starts, told once", async () => {
    const appDir = await writeTempProject({
      ...javascriptProject(),
      'src/index.js': `module.exports = {
  register({ strapi }) {
    if (strapi.plugin('documentation')) throw new Error('there is no documentation plugin');
    if (strapi.plugin('documentation')) throw new Error('still none');
  },
};
`,
    });
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir, logger });
    await service.close();
    const told = lines.filter((l) => String(l.msg).startsWith("strapi.plugin('documentation') is undefined"));
    expect(told.map((l) => l.msg)).to.have.length(1);
    expect(told[0]?.msg).to.include('Content Service has no plugin of that name (its plugins are i18n, upload');
  });
});

describe('the app lifecycle file: failures name the file, the phase and what was asked', () => {
  async function startFailure(files: Record<string, string>): Promise<string> {
    const appDir = await writeTempProject({ ...javascriptProject(), ...files });
    try {
      const service = await createTestService({ appDir });
      await service.close();
    } catch (err) {
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as Error).message).not.to.include('\n');
      return (err as Error).message;
    }
    throw new Error('the service started');
  }

  it('an API the service has not (strapi.db.connection, strapi.admin) in bootstrap', async () => {
    const message = await startFailure({
      'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    strapi.db.connection.raw('select 1');
  },
};
`,
    });
    expect(message).to.match(
      /^src\/index\.js: bootstrap\(\) failed: strapi\.db\.connection is not supported by Content Service: it offers query\(uid\), lifecycles, transaction\(cb\), inTransaction\(\), metadata \(src\/index\.js:3:\d+\)$/,
    );
    expect(
      await startFailure({
        'src/index.js': 'module.exports = { register({ strapi }) { strapi.admin.services.user.findOne(1); } };',
      }),
    ).to.match(
      /^src\/index\.js: register\(\) failed: strapi\.admin\.services\.user is not supported by Content Service: it offers permission /,
    );
  });

  it('strapi.entityService.decorate, which REST and GraphQL would not go through here', async () => {
    const message = await startFailure({
      'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.entityService.decorate((service) => ({ delete: (uid, id) => service.update(uid, id, { data: {} }) }));
  },
};
`,
    });
    expect(message).to.match(
      /^src\/index\.js: register\(\) failed: strapi\.entityService\.decorate\(fn\) is not supported by Content Service: REST and GraphQL here do not go through strapi\.entityService, so a decorator would change only the app's own calls \(a soft delete would still delete for good over REST and GraphQL\)/,
    );
  });

  it('bad data given to strapi.entityService', async () => {
    const message = await startFailure({
      'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.entityService.create('api::category.category', { data: { name: 42, nope: true } });
  },
};
`,
    });
    expect(message).to.match(
      /^src\/index\.js: bootstrap\(\) failed: name must be a `string` type, but the final value was: `42`\. \(src\/index\.js:3:\d+\)$/,
    );
  });

  it('a plugin the service does not have is undefined, as in Strapi; a service a plugin lacks', async () => {
    expect(
      await startFailure({
        'src/index.js': "module.exports = { register({ strapi }) { strapi.plugin('sentry').service('sentry'); } };",
      }),
    ).to.match(/^src\/index\.js: register\(\) failed: Cannot read properties of undefined \(reading 'service'\)/);
    expect(
      await startFailure({
        'src/index.js':
          "module.exports = { register({ strapi }) { strapi.plugin('graphql').service('content-api'); } };",
      }),
    ).to.match(/strapi\.plugin\('graphql'\)\.service\('content-api'\) is not supported by Content Service/);
  });

  it('a GraphQL extension the schema cannot take', async () => {
    const message = await startFailure({
      'src/index.js': `module.exports = {
  register({ strapi }) {
    strapi.plugin('graphql').service('extension').use(({ nexus }) => ({
      types: [nexus.extendType({ type: 'Query', definition(t) { t.field('broken', { type: 'NoSuchType' }); } })],
    }));
  },
};
`,
    });
    expect(message).to.match(/^src\/index\.js: the graphql plugin failed on what it registered: .*NoSuchType/);
  });

  it('exports other than register, bootstrap and destroy', async () => {
    expect(await startFailure({ 'src/index.js': 'module.exports = { register() {}, routes: [] };' })).to.equal(
      'src/index.js (key "routes"): is not a lifecycle function: export only register, bootstrap and destroy',
    );
  });
});

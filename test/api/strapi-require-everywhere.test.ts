// `require('@strapi/strapi')` in every file of a project, not only its api code: policies,
// middlewares, lifecycles and src/index require it for its factories or for a type name their
// editor imported (`const { EntityService } = require('@strapi/strapi')`, undefined in Strapi's
// module as here). Before, such a policy stopped start-up asking to install @strapi/strapi.
import { createRequire } from 'node:module';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'memos',
  info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
  attributes: { title: { type: 'string' }, stamp: { type: 'string' } },
});

/** the lines a project file starts with: what `require('@strapi/strapi')` gave it, as text */
const SEEN = `const strapiModule = require('@strapi/strapi');
const { EntityService } = require('@strapi/strapi');
const seen = typeof strapiModule.factories.createCoreController + '/' + typeof EntityService;
`;

const POLICY = (name: string, verdict: string) => `${SEEN}
module.exports = async (policyContext) => {
  policyContext.state.seen = [...(policyContext.state.seen || []), '${name}:' + seen];
  return ${verdict};
};
`;

const FILES: Record<string, string> = {
  'src/api/memo/content-types/memo/schema.json': SCHEMA,
  'src/api/memo/content-types/memo/lifecycles.js': `${SEEN}
module.exports = { beforeCreate(event) { event.params.data.stamp = 'lifecycles:' + seen; } };
`,
  'src/policies/first.js': POLICY('first', 'true'),
  'src/api/memo/policies/second.js': POLICY('second', "policyContext.request.query.refuse !== 'yes'"),
  'src/middlewares/tag.js': `${SEEN}
module.exports = () => async (ctx, next) => { await next(); ctx.set('x-tag', 'tag:' + seen); };
`,
  'src/api/memo/controllers/memo.js': `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::memo.memo', () => ({
  async seen(ctx) { ctx.body = { seen: ctx.state.seen }; },
}));
`,
  'src/api/memo/routes/memo.js': `const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = createCoreRouter('api::memo.memo', { config: { create: { auth: false } } });
`,
  'src/api/memo/routes/01-seen.js': `module.exports = { routes: [{
  method: 'GET', path: '/memos/seen', handler: 'memo.seen',
  config: { auth: false, policies: ['global::first', 'second'], middlewares: ['global::tag'] },
}] };
`,
  'src/index.js': `${SEEN}
module.exports = { bootstrap({ strapi }) { strapi.indexSaw = seen; } };
`,
  'config/permissions.json': JSON.stringify({ public: ['api::memo.memo.create'] }),
};

describe("require('@strapi/strapi') in a project's policies, middlewares, lifecycles and src/index", () => {
  let service: Awaited<ReturnType<typeof createTestService>>;

  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(FILES) });
  });
  after(() => service.close());

  it('runs both policies of a route and its middleware, each having loaded the factories', async () => {
    const res = await request(service.app).get('/api/memos/seen');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.seen).to.deep.equal(['first:function/undefined', 'second:function/undefined']);
    expect(res.headers['x-tag']).to.equal('tag:function/undefined');
    const refused = await request(service.app).get('/api/memos/seen?refuse=yes');
    expect(refused.status).to.equal(403);
  });

  it('runs the lifecycles file and src/index that required it', async () => {
    const res = await request(service.app)
      .post('/api/memos')
      .send({ data: { title: 'one' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes.stamp).to.equal('lifecycles:function/undefined');
    expect((globalThis.strapi as unknown as { indexSaw?: string }).indexSaw).to.equal('function/undefined');
  });

  it('answers it only while the files load: afterwards the package is not there', () => {
    expect(() => createRequire(import.meta.url)('@strapi/strapi')).to.throw(/Cannot find module '@strapi\/strapi'/);
  });
});

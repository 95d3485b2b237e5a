// A project file requiring a file inside Strapi (`@strapi/strapi/lib/...`, as some v4 projects reach
// for Strapi's internals): the core service's pagination helpers, `getFetchParams` and the entity
// service's factory answer as Strapi's; any other such file is not told to install @strapi/strapi,
// which the project already lists: start-up names the file it required and what the service offers.
import { expect } from 'chai';
import request from 'supertest';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'memos',
  info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
  options: { draftAndPublish: true },
  attributes: { title: { type: 'string' } },
});

// a controller paging the entity service itself, as services copied from Strapi's core service do
const CONTROLLER = `
const {
  getPaginationInfo,
  convertPagedToStartLimit,
  shouldCount,
  transformPaginationResponse,
} = require('@strapi/strapi/lib/core-api/service/pagination');
const { getFetchParams } = require('@strapi/strapi/lib/core-api/service');
const { default: unusedDefault } = require('@strapi/strapi/lib/services/entity-service');
const createEntityService = require('@strapi/strapi/dist/services/entity-service/index.js');
const { createCoreController } = require('@strapi/strapi').factories;

const uid = 'api::memo.memo';
module.exports = createCoreController(uid, ({ strapi }) => ({
  async paged(ctx) {
    const fetchParams = getFetchParams(ctx.query);
    const info = getPaginationInfo(fetchParams);
    const results = await strapi.entityService.findMany(uid, { ...fetchParams, ...convertPagedToStartLimit(info), sort: 'id' });
    const pagination = shouldCount(fetchParams)
      ? transformPaginationResponse(info, await strapi.entityService.count(uid, fetchParams))
      : info;
    ctx.body = {
      titles: results.map((entry) => entry.title),
      pagination,
      unusedDefault: typeof unusedDefault,
      factoryGivesEntityService: createEntityService({ strapi }) === strapi.entityService,
    };
  },
}));
`;

const ROUTES = `module.exports = {
  routes: [{ method: 'GET', path: '/memos/paged', handler: 'memo.paged', config: { auth: false } }],
};
`;

async function startFailure(files: Record<string, string>): Promise<Error | undefined> {
  const appDir = await writeTempProject({ 'src/api/memo/content-types/memo/schema.json': SCHEMA, ...files });
  try {
    const service = await createTestService({ appDir });
    await service.close();
  } catch (err) {
    return err as Error;
  }
  return undefined;
}

describe("a project requiring a file inside Strapi's own package", () => {
  let service: Awaited<ReturnType<typeof createTestService>>;

  before(async () => {
    const appDir = await writeTempProject({
      'src/api/memo/content-types/memo/schema.json': SCHEMA,
      'src/api/memo/controllers/memo.js': CONTROLLER,
      'src/api/memo/routes/paged.js': ROUTES,
      'config/api.js': 'module.exports = { rest: { defaultLimit: 2, maxLimit: 3 } };',
    });
    service = await createTestService({ appDir });
    const strapi = runningStrapi();
    if (!strapi) throw new Error('the project did not start');
    for (const title of ['a', 'b', 'c', 'd', 'e'])
      await strapi.entityService.create('api::memo.memo', { data: { title, publishedAt: new Date() } });
    await strapi.entityService.create('api::memo.memo', { data: { title: 'draft', publishedAt: null } });
  });
  after(() => service.close());

  it("pages with Strapi's helpers: defaultLimit, published entries only, pageCount and total", async () => {
    const res = await request(service.app).get('/api/memos/paged');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      titles: ['a', 'b'],
      pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 },
      unusedDefault: 'undefined',
      factoryGivesEntityService: true,
    });
  });

  it('caps the page size at maxLimit and honours withCount=false and start/limit', async () => {
    const paged = await request(service.app).get('/api/memos/paged?pagination[page]=2&pagination[pageSize]=10');
    expect(paged.body.titles).to.deep.equal(['d', 'e']);
    expect(paged.body.pagination).to.deep.equal({ page: 2, pageSize: 3, pageCount: 2, total: 5 });
    const offset = await request(service.app).get(
      '/api/memos/paged?pagination[start]=1&pagination[limit]=-1&pagination[withCount]=false',
    );
    expect(offset.body.titles).to.deep.equal(['b', 'c', 'd']);
    expect(offset.body.pagination).to.deep.equal({ start: 1, limit: 3 });
  });

  it('answers contradictory pagination and a bad withCount with a 400', async () => {
    const both = await request(service.app).get('/api/memos/paged?pagination[page]=1&pagination[limit]=2');
    expect(both.status).to.equal(400);
    expect(both.body.error).to.include({
      name: 'ValidationError',
      message: 'Invalid pagination parameters. Expected either start/limit or page/pageSize',
    });
    const withCount = await request(service.app).get('/api/memos/paged?pagination[withCount]=maybe');
    expect(withCount.status).to.equal(400);
    expect(withCount.body.error.message).to.equal(
      'Invalid withCount parameter. Expected "t","1","true","false","0","f"',
    );
  });

  it('stops start-up naming any other internal file, not asking to install @strapi/strapi', async () => {
    const failure = await startFailure({
      'src/index.js': `const { features } = require('@strapi/strapi/lib/utils/ee');
module.exports = { register() {}, bootstrap() {} };
`,
    });
    expect(failure?.message).to.equal(
      'src/index.js: requires "@strapi/strapi/lib/utils/ee", a file inside Strapi itself: ' +
        'Content Service answers require("@strapi/strapi") with its factories and offers ' +
        'lib/core-api/service/pagination, lib/core-api/service, lib/services/entity-service only; ' +
        'use what the strapi object offers (strapi.entityService, strapi.service(uid)...) or remove what uses it',
    );
  });

  it('still asks to install a package that is not there', async () => {
    const failure = await startFailure({
      'src/index.js': `require('not-installed-anywhere-pkg/lib/x');
module.exports = {};
`,
    });
    expect(failure?.message).to.match(/requires the package "not-installed-anywhere-pkg", which is not installed/);
  });
});

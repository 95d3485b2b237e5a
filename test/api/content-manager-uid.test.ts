// strapi.service('plugin::content-manager.uid'), which lifecycles call to fill a uid attribute
// as Strapi's admin panel fills it.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const PROJECT = {
  'package.json': JSON.stringify({ name: 'uid-service', dependencies: {} }),
  'config/permissions.json': JSON.stringify({ public: ['api::page.page.create', 'api::page.page.check'] }),
  'src/api/page/content-types/page/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    attributes: { title: { type: 'string' }, slug: { type: 'uid', targetField: 'title' } },
  }),
  'src/api/page/content-types/page/lifecycles.js': `
    module.exports = {
      async beforeCreate(event) {
        if (event.params.data.slug) return;
        event.params.data.slug = await strapi.service('plugin::content-manager.uid').generateUIDField({
          contentTypeUID: 'api::page.page',
          field: 'slug',
          data: event.params.data,
        });
      },
    };
  `,
  'src/api/page/controllers/page.js': `
    const { createCoreController } = require('@strapi/strapi').factories;
    module.exports = createCoreController('api::page.page', ({ strapi }) => ({
      async check(ctx) {
        const available = await strapi.service('plugin::content-manager.uid').checkUIDAvailability({
          contentTypeUID: 'api::page.page', field: 'slug', value: ctx.query.slug,
        });
        ctx.body = { available };
      },
    }));
  `,
  'src/api/page/routes/check.js': `module.exports = { routes: [{ method: 'GET', path: '/pages/check', handler: 'page.check' }] };`,
};

describe("strapi.service('plugin::content-manager.uid')", () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  const create = async (data: Record<string, unknown>) =>
    (await request(service.app).post('/api/pages').send({ data }).expect(200)).body.data.attributes.slug as string;

  it('slugs the target field and makes it unique with -1, -2, as the admin panel does', async () => {
    expect(await create({ title: 'Über Café & Bar' })).to.equal('ueber-cafe-and-bar');
    expect(await create({ title: 'Über Café & Bar' })).to.equal('ueber-cafe-and-bar-1');
    expect(await create({ title: 'Über Café & Bar' })).to.equal('ueber-cafe-and-bar-2');
    // no target value: the content-type's name
    expect(await create({})).to.equal('page');
    expect(await create({ title: '' })).to.equal('page-1');
  });

  it('checkUIDAvailability: whether no entry holds the value', async () => {
    expect((await request(service.app).get('/api/pages/check?slug=page').expect(200)).body).to.deep.equal({
      available: false,
    });
    expect((await request(service.app).get('/api/pages/check?slug=free').expect(200)).body).to.deep.equal({
      available: true,
    });
  });
});

// A Strapi v4 project's own plugin (`config/plugins` with `resolve`): its strapi-server loaded with
// Strapi's defaults, its config defaults under the app's and validated, its register and bootstrap
// before the app's, its services and controllers from factories, its content-API routes under
// /api/<plugin> with plugin::<plugin>.<controller>.<action> permissions and its own policy, its
// admin routes not served.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';
import { bearer } from './users-permissions/helpers.js';

const ORDER = {
  kind: 'collectionType',
  collectionName: 'shop_orders',
  info: { singularName: 'order', pluralName: 'orders', displayName: 'Order' },
  options: { draftAndPublish: false },
  attributes: { item: { type: 'string', required: true } },
};

// one name for singular and plural: Strapi refuses it for an api's content-type, not for a plugin's
const STOCK = {
  kind: 'collectionType',
  info: { singularName: 'stock', pluralName: 'stock', displayName: 'Stock' },
  attributes: { item: { type: 'string' }, count: { type: 'integer' } },
};

const SERVER = `
module.exports = {
  register({ strapi }) {
    strapi.plugin('shop').service('steps').push('plugin register:' + typeof strapi.plugin('shop').service('order').list);
  },
  bootstrap({ strapi }) {
    strapi.plugin('shop').service('steps').push('plugin bootstrap');
  },
  config: {
    default: ({ env }) => ({ currency: 'EUR', greeting: 'hi', fromEnv: env('SHOP_TEST_UNSET', 'fallback') }),
    validator(config) {
      if (typeof config.currency !== 'string') throw new Error('currency must be a string');
    },
  },
  contentTypes: {
    order: { schema: require('./content-types/order/schema.json') },
    stock: { schema: require('./content-types/stock/schema.json') },
  },
  services: {
    steps: () => [],
    order: ({ strapi }) => ({
      list: () => strapi.entityService.findMany('plugin::shop.order', { sort: 'id', fields: ['item'] }),
    }),
  },
  controllers: {
    order: ({ strapi }) => ({
      async list(ctx) {
        const config = strapi.plugin('shop').config;
        ctx.body = {
          orders: await strapi.plugin('shop').service('order').list(),
          currency: config('currency'),
          greeting: config('greeting'),
          fromEnv: config('fromEnv'),
        };
      },
      async create(ctx) {
        return strapi.entityService.create('plugin::shop.order', { data: { item: ctx.request.body.item } });
      },
      open: () => ({ open: true }),
      steps: () => strapi.plugin('shop').service('steps'),
      async restock() {
        await strapi.query('plugin::shop.stock').create({ data: { item: 'tea', count: 3 } });
        return strapi.query('plugin::shop.stock').findMany({ select: ['item', 'count'] });
      },
    }),
  },
  policies: { fromShop: (policyContext) => policyContext.request.header['x-shop'] === 'yes' },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/orders', handler: 'order.list' },
        { method: 'POST', path: '/orders', handler: 'order.create', config: { policies: ['fromShop'] } },
        { method: 'GET', path: '/open', handler: 'order.open', config: { auth: false } },
        { method: 'GET', path: '/steps', handler: 'order.steps', config: { auth: false } },
        { method: 'POST', path: '/restock', handler: 'order.restock', config: { auth: false } },
      ],
    },
    admin: { type: 'admin', routes: [{ method: 'GET', path: '/settings', handler: 'order.list' }] },
  },
};
`;

const INDEX = `module.exports = {
  register({ strapi }) { strapi.plugin('shop').service('steps').push('app register'); },
  bootstrap({ strapi }) { strapi.plugin('shop').service('steps').push('app bootstrap'); },
};
`;

async function shopApp(pluginConfig: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-local-plugin-'));
  await writeFiles(dir, {
    'config/plugins.js': `module.exports = () => ({
      shop: { enabled: true, resolve: './src/plugins/shop', config: ${pluginConfig} },
      'users-permissions': { config: { ratelimit: { enabled: false } } },
    });`,
    'config/permissions.json': JSON.stringify({ public: ['plugin::shop.order.list'] }),
    'src/api/note/content-types/note/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { text: { type: 'string' } },
    }),
    'src/index.js': INDEX,
    'src/plugins/shop/strapi-server.js': "module.exports = require('./server');",
    'src/plugins/shop/server/index.js': SERVER,
    'src/plugins/shop/server/content-types/order/schema.json': JSON.stringify(ORDER),
    'src/plugins/shop/server/content-types/stock/schema.json': JSON.stringify(STOCK),
  });
  return dir;
}

describe("a Strapi v4 project's local plugin (config/plugins resolve, src/plugins/<name>/strapi-server)", () => {
  let service: TestService;
  const api = () => request(service.app);
  before(async () => {
    service = await createTestService({ appDir: await shopApp("{ greeting: 'hello' }") });
  });
  after(() => service.close());

  it("runs the plugin's register and bootstrap before the app's, with its services already there", async () => {
    expect((await api().get('/api/shop/steps').expect(200)).body).to.deep.equal([
      'plugin register:function',
      'app register',
      'plugin bootstrap',
      'app bootstrap',
    ]);
  });

  it("serves its content-API routes under /api/<plugin> with its permissions, its config's defaults under the app's", async () => {
    const res = await api().get('/api/shop/orders').expect(200);
    expect(res.body).to.deep.equal({ orders: [], currency: 'EUR', greeting: 'hello', fromEnv: 'fallback' });
    // not granted to the public
    await api().post('/api/shop/orders').set('X-Shop', 'yes').send({ item: 'tea' }).expect(403);
    expect((await api().get('/api/shop/open').expect(200)).body).to.deep.equal({ open: true });
  });

  it('runs its own policy by its bare name, and writes its content-type through the entity service', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'shop', type: 'full-access' });
    await api().post('/api/shop/orders').set(bearer(accessKey)).send({ item: 'tea' }).expect(403);
    const created = await api()
      .post('/api/shop/orders')
      .set(bearer(accessKey))
      .set('X-Shop', 'yes')
      .send({ item: 'tea' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ item: 'tea' });
    const res = await api().get('/api/shop/orders').expect(200);
    expect(res.body.orders.map((order: { item: string }) => order.item)).to.deep.equal(['tea']);
  });

  it('stores a content-type of one name for singular and plural, as Strapi allows for plugins; GraphQL still answers', async () => {
    const res = await api().post('/api/shop/restock').expect(200);
    expect(res.body).to.deep.equal([{ id: 1, item: 'tea', count: 3 }]);
    const graph = await api().post('/graphql').send({ query: '{ __type(name: "Query") { fields { name } } }' });
    const queries = (graph.body.data.__type.fields as Array<{ name: string }>).map((field) => field.name);
    expect(queries).to.include.members(['notes', 'note', 'shopStock']);
  });

  it('lists its actions for roles to grant and does not serve its admin routes', async () => {
    const { accessKey } = await createApiToken(service.context, { name: 'shop-admin', type: 'full-access' });
    const list = await api().get('/api/users-permissions/permissions').set(bearer(accessKey)).expect(200);
    expect(Object.keys(list.body.permissions['plugin::shop'].controllers.order).sort()).to.deep.equal([
      'create',
      'list',
      'open',
      'restock',
      'steps',
    ]);
    await api().get('/api/shop/settings').set(bearer(accessKey)).expect(404);
  });

  it("stops start-up when its validator refuses the app's config, naming the plugin", async () => {
    let failure: unknown;
    try {
      const bad = await createTestService({ appDir: await shopApp('{ currency: 5 }') });
      await bad.close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.contain('Error regarding shop config: currency must be a string');
  });
});

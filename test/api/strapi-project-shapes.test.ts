// Shapes met in public Strapi v4 projects that Strapi starts and this service must start too,
// each in a small project layout: schema.json files without `kind` or `collectionName` (Strapi
// fills them in), a strapi::security config with CSP keywords written without their quotes, and
// the official v4 templates' bootstrap that seeds once, remembering it in strapi.store.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import request from 'supertest';
import { ConfigError } from '../../src/config/index.js';
import type { Logger } from '../../src/logger.js';
import { createServer } from '../../src/app.js';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A logger that keeps each line's level and message. */
function capturingLogger(): { logger: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino<never>({ level: 'info', base: undefined }, stream), lines };
}

/** What stops the service from starting on the project (an error when it starts). */
async function startFailure(appDir: string): Promise<Error> {
  try {
    const started = await createTestService({ appDir });
    await started.close();
  } catch (err) {
    if (err instanceof Error) return err;
  }
  throw new Error('the service started');
}

/** A product type as some projects write it by hand: no `kind`, no `collectionName`. */
const PRODUCT = {
  info: { singularName: 'shop-product', pluralName: 'shop-products', displayName: 'Product' },
  options: { draftAndPublish: true },
  attributes: {
    name: { type: 'string', required: true },
    slug: { type: 'uid', targetField: 'name' },
    brand: { type: 'relation', relation: 'manyToOne', target: 'api::brand.brand', inversedBy: 'products' },
  },
};
/** A table name with dashes, which Strapi quotes (met in a landing-page project: `default-landers`). */
const BRAND = {
  kind: 'collectionType',
  collectionName: 'shop-brands',
  info: { singularName: 'brand', pluralName: 'brands', displayName: 'Brand' },
  attributes: {
    name: { type: 'string' },
    products: { type: 'relation', relation: 'oneToMany', target: 'api::shop-product.shop-product', mappedBy: 'brand' },
  },
};
const PERMISSIONS = {
  public: [
    'api::shop-product.shop-product.find',
    'api::shop-product.shop-product.findOne',
    'api::shop-product.shop-product.create',
    'api::brand.brand.find',
    'api::brand.brand.findOne',
    'api::brand.brand.create',
  ],
};

const PAGE = {
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  attributes: { title: { type: 'string' } },
};

/** A landing-page backend embedding Google Maps: CSP keywords without quotes, as in many projects. */
const MAPS_MIDDLEWARES = `module.exports = [
  'strapi::logger',
  'strapi::errors',
  {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'connect-src': ["'self'", 'https:'],
          'script-src': ["'self'", 'unsafe-inline', 'https://maps.googleapis.com'],
          'frame-src': ['self'],
          upgradeInsecureRequests: null,
        },
      },
    },
  },
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`;

describe('schema.json without kind or collectionName (Strapi v4 fills them in), or with a dashed one', () => {
  let service: TestService;
  before(async () => {
    const appDir = await writeTempProject({
      'src/api/shop-product/content-types/shop-product/schema.json': json(PRODUCT),
      'src/api/brand/content-types/brand/schema.json': json(BRAND),
      'config/permissions.json': json(PERMISSIONS),
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('reads a missing kind as collectionType and names the collection after the singular name', () => {
    const product = service.context.registry.contentType('api::shop-product.shop-product');
    expect(product).to.include({ kind: 'collectionType', collectionName: 'shop_product', draftAndPublish: true });
    expect(service.context.registry.contentType('api::brand.brand')?.collectionName).to.equal('shop-brands');
  });

  it('serves REST CRUD with the relation, and GraphQL, on them', async () => {
    const api = () => request(service.app);
    const brand = await api()
      .post('/api/brands')
      .send({ data: { name: 'Acme' } })
      .expect(200);
    const created = await api()
      .post('/api/shop-products')
      .send({ data: { name: 'Anvil', slug: 'anvil', brand: brand.body.data.id } })
      .expect(200);
    const id = created.body.data.id as number;
    const read = await api().get(`/api/shop-products/${id}?populate=brand`).expect(200);
    expect(read.body.data.attributes).to.include({ name: 'Anvil', slug: 'anvil' });
    expect(read.body.data.attributes.brand.data.attributes.name).to.equal('Acme');
    const stored = await service.context.connection.db!.collection('shop-brands').findOne({ name: 'Acme' });
    expect(stored?._id).to.equal(brand.body.data.id);
    const inverse = await api().get(`/api/brands/${brand.body.data.id}?populate=products`).expect(200);
    expect(inverse.body.data.attributes.products.data.map((p: { id: number }) => p.id)).to.deep.equal([id]);
    const gql = await api()
      .post('/graphql')
      .send({ query: '{ shopProducts { data { attributes { name brand { data { attributes { name } } } } } } }' })
      .expect(200);
    expect(gql.body.errors).to.equal(undefined);
    expect(gql.body.data.shopProducts.data).to.deep.equal([
      { attributes: { name: 'Anvil', brand: { data: { attributes: { name: 'Acme' } } } } },
    ]);
  });

  it('still refuses a kind Strapi does not know, naming the file', async () => {
    const appDir = await writeTempProject({
      'src/api/thing/content-types/thing/schema.json': json({ ...PRODUCT, kind: 'collection', info: BRAND.info }),
    });
    expect((await startFailure(appDir)).message).to.match(
      /thing\/schema\.json: "kind" must be "collectionType" or "singleType", got "collection"$/,
    );
  });
});

describe('strapi::security with CSP keywords written without quotes (accepted by Strapi v4)', () => {
  let service: TestService;
  let lines: Array<{ level: number; msg: string }>;
  before(async () => {
    const appDir = await writeTempProject({
      'src/api/page/content-types/page/schema.json': json(PAGE),
      'config/middlewares.js': MAPS_MIDDLEWARES,
      'config/permissions.json': json({ public: ['api::page.page.find'] }),
    });
    const captured = capturingLogger();
    lines = captured.lines;
    service = await createTestService({ appDir, logger: captured.logger });
  });
  after(() => service.close());

  it('starts, and sends the policy browsers enforce under Strapi: the unquoted keywords left out', async () => {
    const res = await request(service.app).get('/api/pages').expect(200);
    const policy = String(res.headers['content-security-policy']).split(';');
    expect(policy).to.include("script-src 'self' https://maps.googleapis.com");
    expect(policy).to.include('frame-src');
    expect(policy).to.include("connect-src 'self' https:");
  });

  it('warns once per unquoted keyword, naming the file, the directive and the quoted form', () => {
    const warnings = lines.filter((l) => l.level === 40 && l.msg.includes('without quotes')).map((l) => l.msg);
    expect(warnings).to.have.length(2);
    expect(warnings[0]).to.match(/^config\/middlewares\.js: strapi::security contentSecurityPolicy "script-src"/);
    expect(warnings[0]).to.include(`Write "'unsafe-inline'"`);
    expect(warnings[1]).to.include('"frame-src" has "self"');
  });

  it('stops start-up in one line naming the file and the entry when helmet refuses the config', async () => {
    const appDir = await writeTempProject({
      'src/api/page/content-types/page/schema.json': json(PAGE),
      'config/middlewares.js': MAPS_MIDDLEWARES.replace("'https://maps.googleapis.com'", "'https://a.example; b'"),
    });
    const error = await startFailure(appDir);
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.match(
      /^config\/middlewares\.js \(key "strapi::security"\): its config is refused: Content-Security-Policy received an invalid directive value for "script-src"$/,
    );
  });
});

describe('src/index.js requiring a package inside bootstrap (a socket server, a seeder)', () => {
  it('stops start-up in one line naming the file, the phase, the package and the command', async () => {
    const appDir = await writeTempProject({
      'src/api/page/content-types/page/schema.json': json(PAGE),
      'src/index.js': `'use strict';
module.exports = {
  register() {},
  bootstrap({ strapi }) {
    const { Server } = require('socket-server-not-installed');
    strapi.io = new Server(strapi.server.httpServer);
  },
};
`,
    });
    const error = await startFailure(appDir);
    expect(error).to.be.instanceOf(ConfigError);
    expect(error.message).to.equal(
      'src/index.js: bootstrap() requires the package "socket-server-not-installed", which is not installed: run "npm install socket-server-not-installed" in the app directory, or remove what uses it (src/index.js:5:24)',
    );
  });
});

/** The first-run check of Strapi v4's official templates (blog, corporate, ecommerce): seed once. */
const SEEDING_INDEX = `'use strict';
async function isFirstRun() {
  const pluginStore = strapi.store({ environment: strapi.config.environment, type: 'type', name: 'setup' });
  const initHasRun = await pluginStore.get({ key: 'initHasRun' });
  await pluginStore.set({ key: 'initHasRun', value: true });
  return !initHasRun;
}
module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    if (await isFirstRun()) {
      await strapi.entityService.create('api::page.page', { data: { title: 'Welcome' } });
    }
    const runs = (await strapi.store.get({ type: 'plugin', name: 'seed', key: 'runs' })) ?? 0;
    await strapi.store.set({ type: 'plugin', name: 'seed', key: 'runs', value: runs + 1 });
  },
};
`;

describe("src/index.js keeping state in strapi.store (the v4 templates' seed)", () => {
  it('runs the first-run seed once: the store outlives a restart', async () => {
    const appDir = await writeTempProject({
      'src/api/page/content-types/page/schema.json': json(PAGE),
      'src/index.js': SEEDING_INDEX,
      'config/permissions.json': json({ public: ['api::page.page.find'] }),
    });
    const databaseUri = freshDatabaseUri();
    const first = await createServer({ appDir, databaseUri });
    await first.stop();
    const second = await createTestService({ appDir }, databaseUri);
    try {
      const pages = await request(second.app).get('/api/pages').expect(200);
      expect(pages.body.data.map((p: { attributes: { title: string } }) => p.attributes.title)).to.deep.equal([
        'Welcome',
      ]);
      // besides the providers' settings users-permissions writes at its start, as Strapi's does
      const settings = await second.context.connection
        .collection('strapi_core_store_settings')
        .find({ key: { $ne: 'plugin_users-permissions_grant' } }, { projection: { _id: 0 } })
        .sort({ key: 1 })
        .toArray();
      expect(settings).to.deep.equal([
        { key: 'plugin_seed_runs', environment: null, tag: null, value: 2 },
        { key: 'type_setup_initHasRun', environment: 'test', tag: null, value: true },
      ]);
    } finally {
      await second.close();
    }
  });
});

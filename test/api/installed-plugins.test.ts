// Strapi plugins a project installed from npm: every dependency of the app's package.json whose
// package.json says `strapi.kind: 'plugin'`, found in the app's node_modules and loaded as a local
// plugin is. The plugin packages are the test's own, written into a temporary app's node_modules:
// one with populate-deep's contract (a function subscriber that rewrites `params.populate` when it
// is ['deep', n]), one with a content-type, a content-API route, a controller and a service, one
// turned off in config/plugins, ones whose code fails (start-up goes on, one warning each), ones
// named like a built-in plugin, an admin-only one, one with a content-type this service cannot
// store, and a dependency that is not installed.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN, type LogLine } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const pluginPackage = (name: string, pluginName: string, extra: Record<string, unknown> = {}) =>
  json({ name, version: '1.0.0', strapi: { name: pluginName, kind: 'plugin' }, ...extra });

/** populate-deep's contract, written for this test: `['deep', n]` becomes a nested populate object from strapi.getModel. */
const DEEP_SERVER = `
'use strict';
// as populate-deep, lodash without declaring it (a Strapi project has it; this one gets the service's)
const { isEmpty } = require('lodash/fp');
function nestedPopulate(strapi, uid, depth) {
  if (depth <= 1) return true;
  const model = strapi.getModel(uid);
  const populate = {};
  for (const [name, attribute] of Object.entries(model.attributes)) {
    if (attribute.type === 'media') populate[name] = true;
    else if (attribute.type === 'component') populate[name] = nestedPopulate(strapi, attribute.component, depth - 1);
    else if (attribute.type === 'dynamiczone') {
      const merged = {};
      for (const component of attribute.components) {
        const nested = nestedPopulate(strapi, component, depth - 1);
        if (nested !== true) Object.assign(merged, nested.populate);
      }
      populate[name] = Object.keys(merged).length > 0 ? { populate: merged } : true;
    } else if (attribute.type === 'relation' && attribute.target !== 'admin::user')
      populate[name] = nestedPopulate(strapi, attribute.target, depth - 1);
  }
  return isEmpty(populate) ? true : { populate };
}
module.exports = {
  config: { default: { defaultDepth: 3 }, validator() {} },
  bootstrap({ strapi }) {
    const seen = strapi.plugin('acme-deep').service('seen');
    strapi.db.lifecycles.subscribe((event) => {
      if (event.action !== 'beforeFindMany' && event.action !== 'beforeFindOne') return;
      const populate = event.params.populate;
      if (event.model.uid.startsWith('api::')) seen.push({ action: event.action, uid: event.model.uid, populate: populate ?? null });
      if (!Array.isArray(populate) || populate[0] !== 'deep') return;
      const depth = Number(populate[1] ?? strapi.plugin('acme-deep').config('defaultDepth'));
      const nested = nestedPopulate(strapi, event.model.uid, depth);
      event.params.populate = nested === true ? {} : nested.populate;
    });
  },
  services: { seen: () => [] },
  controllers: {
    seen: ({ strapi }) => ({
      list: () => ({ seen: strapi.plugin('acme-deep').service('seen'), settings: strapi.config.get('plugin.acme-deep') }),
      forget: () => { strapi.plugin('acme-deep').service('seen').length = 0; return { ok: true }; },
    }),
  },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/seen', handler: 'seen.list', config: { auth: false } },
        { method: 'DELETE', path: '/seen', handler: 'seen.forget', config: { auth: false } },
      ],
    },
  },
};
`;

/** A plugin with a content-type, its service, controller and content-API routes; registers admin permissions. */
const BOARD_SERVER = `
'use strict';
module.exports = () => ({
  register({ strapi }) {
    strapi.admin.services.permission.actionProvider.registerMany([
      { section: 'plugins', displayName: 'Read', uid: 'read', pluginName: 'board' },
    ]);
  },
  async bootstrap({ strapi }) {
    await strapi.admin.services.permission.conditionProvider.register({ displayName: 'Own', name: 'own', handler: () => true });
  },
  config: {
    default: ({ env }) => ({ prefix: 'pin', max: 3 }),
    validator(config) { if (typeof config.max !== 'number') throw new Error('max must be a number'); },
  },
  contentTypes: {
    pin: {
      schema: {
        kind: 'collectionType',
        info: { singularName: 'pin', pluralName: 'pins', displayName: 'Pin' },
        options: { draftAndPublish: false },
        attributes: { text: { type: 'string', required: true } },
      },
    },
  },
  services: {
    pins: ({ strapi }) => ({
      list: () => strapi.entityService.findMany('plugin::board.pin', { sort: 'id', fields: ['text'] }),
      add: (text) => strapi.entityService.create('plugin::board.pin', {
        data: { text: strapi.plugin('board').config('prefix') + ':' + text },
      }),
    }),
  },
  controllers: {
    pins: ({ strapi }) => ({
      async list(ctx) { ctx.body = { pins: await strapi.plugin('board').service('pins').list(), max: strapi.plugin('board').config('max') }; },
      add: (ctx) => strapi.plugin('board').service('pins').add(ctx.request.body.text),
    }),
  },
  routes: {
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/pins', handler: 'pins.list', config: { auth: false } },
        { method: 'POST', path: '/pins', handler: 'pins.add', config: { auth: false } },
      ],
    },
    admin: { type: 'admin', routes: [{ method: 'GET', path: '/settings', handler: 'pins.list' }] },
  },
});
`;

const OFF_SERVER = `module.exports = {
  register() { throw new Error('the plugin turned off ran'); },
  routes: { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/here', handler: 'x.here', config: { auth: false } }] } },
  controllers: { x: { here: () => ({ here: true }) } },
};`;

const BROKEN_SERVER = `module.exports = {
  bootstrap({ strapi }) { strapi.db.connection.raw('select 1'); },
  controllers: { ping: { pong: () => ({ pong: true }) } },
  routes: { 'content-api': { type: 'content-api', routes: [{ method: 'GET', path: '/ping', handler: 'ping.pong', config: { auth: false } }] } },
};`;

const WOBBLY_SERVER = `module.exports = {
  register() { throw new Error('wobbly cannot register'); },
  bootstrap() { globalThis.__wobblyBootstrapped = true; },
};`;

const FAKE_GRAPHQL_SERVER = `module.exports = { register() { throw new Error('the fake graphql ran'); } };`;

const SCHEMAS: Record<string, unknown> = {
  'src/api/article/content-types/article/schema.json': {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      seo: { type: 'component', component: 'shared.seo' },
      blocks: { type: 'dynamiczone', components: ['blocks.quote', 'blocks.links'] },
      owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
    },
  },
  'src/api/category/content-types/category/schema.json': {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
    },
  },
  'src/api/homepage/content-types/homepage/schema.json': {
    kind: 'singleType',
    collectionName: 'homepages',
    info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
    options: { draftAndPublish: false },
    attributes: {
      heading: { type: 'string' },
      featured: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
      seo: { type: 'component', component: 'shared.seo' },
    },
  },
  'src/components/shared/seo.json': {
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo' },
    attributes: { metaTitle: { type: 'string' }, image: { type: 'media', multiple: false } },
  },
  'src/components/shared/link.json': {
    collectionName: 'components_shared_links',
    info: { displayName: 'Link' },
    attributes: { url: { type: 'string' } },
  },
  'src/components/blocks/quote.json': {
    collectionName: 'components_blocks_quotes',
    info: { displayName: 'Quote' },
    attributes: {
      text: { type: 'string' },
      source: { type: 'relation', relation: 'oneToOne', target: 'api::category.category' },
    },
  },
  'src/components/blocks/links.json': {
    collectionName: 'components_blocks_links',
    info: { displayName: 'Links' },
    attributes: { label: { type: 'string' }, links: { type: 'component', repeatable: true, component: 'shared.link' } },
  },
};

const PLUGIN_FILES: Record<string, string> = {
  'node_modules/acme-deep/package.json': pluginPackage('acme-deep', 'acme-deep'),
  'node_modules/acme-deep/strapi-server.js': "module.exports = require('./server');",
  'node_modules/acme-deep/server/index.js': DEEP_SERVER,
  'node_modules/strapi-plugin-board/package.json': pluginPackage('strapi-plugin-board', 'board'),
  'node_modules/strapi-plugin-board/strapi-server.js': BOARD_SERVER,
  'node_modules/strapi-plugin-off/package.json': pluginPackage('strapi-plugin-off', 'off'),
  'node_modules/strapi-plugin-off/strapi-server.js': OFF_SERVER,
  'node_modules/strapi-plugin-broken/package.json': pluginPackage('strapi-plugin-broken', 'broken'),
  'node_modules/strapi-plugin-broken/strapi-server.js': BROKEN_SERVER,
  'node_modules/@acme/strapi-plugin-wobbly/package.json': pluginPackage('@acme/strapi-plugin-wobbly', 'wobbly'),
  'node_modules/@acme/strapi-plugin-wobbly/strapi-server.js': WOBBLY_SERVER,
  'node_modules/strapi-plugin-needs-more/package.json': pluginPackage('strapi-plugin-needs-more', 'needs-more'),
  'node_modules/strapi-plugin-needs-more/strapi-server.js':
    "require('some-package-nobody-installed'); module.exports = {};",
  // strapi-plugin-website-builder 3.0.1's validator: async (a yup validate), refusing a build without url
  'node_modules/strapi-plugin-builds/package.json': pluginPackage('strapi-plugin-builds', 'builds'),
  'node_modules/strapi-plugin-builds/strapi-server.js': `module.exports = {
    config: {
      default: () => ({ builds: [{ name: 'site' }] }),
      validator: async (config) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (config.builds.some((build) => !build.url)) throw new Error('A URL is required');
      },
    },
    bootstrap() { throw new Error('the plugin with a refused config ran'); },
  };`,
  'node_modules/strapi-plugin-morph/package.json': pluginPackage('strapi-plugin-morph', 'morph'),
  'node_modules/strapi-plugin-morph/strapi-server.js': `module.exports = { contentTypes: { task: { schema: {
    kind: 'collectionType', info: { singularName: 'task', pluralName: 'tasks', displayName: 'Task' },
    attributes: { notes: { type: 'relation', relation: 'morphMany', target: 'plugin::morph.note', morphBy: 'task' } } } } } };`,
  'node_modules/strapi-plugin-fake-graphql/package.json': pluginPackage('strapi-plugin-fake-graphql', 'graphql'),
  'node_modules/strapi-plugin-fake-graphql/strapi-server.js': FAKE_GRAPHQL_SERVER,
  'node_modules/@strapi/plugin-i18n/package.json': pluginPackage('@strapi/plugin-i18n', 'i18n'),
  'node_modules/@strapi/plugin-i18n/strapi-server.js': "throw new Error('the i18n package was loaded');",
  'node_modules/strapi-plugin-admin-only/package.json': pluginPackage('strapi-plugin-admin-only', 'admin-only'),
  'node_modules/strapi-plugin-admin-only/strapi-admin.js': 'module.exports = {};',
  'node_modules/left-pad/package.json': json({ name: 'left-pad', version: '1.3.0' }),
  'node_modules/left-pad/index.js': 'module.exports = () => {};',
};

const DEPENDENCIES = [
  'acme-deep',
  'strapi-plugin-board',
  'strapi-plugin-off',
  'strapi-plugin-broken',
  '@acme/strapi-plugin-wobbly',
  'strapi-plugin-needs-more',
  'strapi-plugin-builds',
  'strapi-plugin-morph',
  'strapi-plugin-fake-graphql',
  '@strapi/plugin-i18n',
  'strapi-plugin-admin-only',
  'left-pad',
  'strapi-plugin-not-installed',
];

async function pluginApp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-installed-plugins-'));
  await writeFiles(dir, {
    ...Object.fromEntries(Object.entries(SCHEMAS).map(([path, schema]) => [path, json(schema)])),
    ...PLUGIN_FILES,
    'package.json': json({
      name: 'plugins-app',
      private: true,
      dependencies: Object.fromEntries(DEPENDENCIES.map((name) => [name, '^1.0.0'])),
    }),
    'config/plugins.js': `module.exports = () => ({
      'acme-deep': { config: { defaultDepth: 2 } },
      off: { enabled: false },
      'users-permissions': { config: { ratelimit: { enabled: false } } },
    });`,
    'config/permissions.json': json({
      public: [
        'api::article.article.find',
        'api::article.article.findOne',
        'api::category.category.find',
        'api::homepage.homepage.find',
      ],
    }),
  });
  return dir;
}

describe('Strapi plugins the project installed from npm (dependencies with strapi.kind plugin)', () => {
  let service: TestService;
  let lines: LogLine[];
  let appDir: string;
  const api = () => request(service.app);
  const warnings = () => lines.filter((line) => line.level === WARN).map((line) => String(line.msg));

  before(async () => {
    appDir = await pluginApp();
    const capture = capturingLogger('info');
    lines = capture.lines;
    delete (globalThis as { __wobblyBootstrapped?: unknown }).__wobblyBootstrapped;
    service = await createTestService({ appDir, logger: capture.logger });
    // written through the entity service: the public role may only read
    const strapi = globalThis.strapi as unknown as {
      entityService: { create(uid: string, params: unknown): Promise<{ id: number }> };
    };
    const news = await strapi.entityService.create('api::category.category', { data: { name: 'News' } });
    const article = await strapi.entityService.create('api::article.article', {
      data: {
        title: 'Hello',
        category: news.id,
        seo: { metaTitle: 'Hello!' },
        blocks: [
          { __component: 'blocks.quote', text: 'Quoted', source: news.id },
          { __component: 'blocks.links', label: 'More', links: [{ url: 'https://example.com' }] },
        ],
      },
    });
    await strapi.entityService.create('api::homepage.homepage', {
      data: { heading: 'Welcome', featured: article.id, seo: { metaTitle: 'Home' } },
    });
  });
  after(() => service.close());
  beforeEach(() => api().delete('/api/acme-deep/seen').expect(200));

  describe('a plugin with populate-deep\'s contract (a subscriber rewriting params.populate ["deep", n])', () => {
    it("its before-hooks get params.populate as Strapi's entity service hands it", async () => {
      await api().get('/api/articles?populate=deep').expect(200);
      await api().get('/api/articles?populate=deep,3').expect(200);
      await api().get('/api/articles?populate=*').expect(200);
      await api().get('/api/articles?populate[0]=category&populate[1]=seo').expect(200);
      await api().get('/api/articles?populate[category][fields][0]=name').expect(200);
      await api().get('/api/articles/1?populate=deep').expect(200);
      await api().get('/api/homepage?populate=deep').expect(200);
      const { seen } = (await api().get('/api/acme-deep/seen').expect(200)).body as { seen: unknown[] };
      expect(seen).to.deep.equal([
        { action: 'beforeFindMany', uid: 'api::article.article', populate: ['deep'] },
        { action: 'beforeFindMany', uid: 'api::article.article', populate: ['deep', '3'] },
        { action: 'beforeFindMany', uid: 'api::article.article', populate: true },
        { action: 'beforeFindMany', uid: 'api::article.article', populate: ['category', 'seo'] },
        { action: 'beforeFindMany', uid: 'api::article.article', populate: { category: { fields: ['name'] } } },
        { action: 'beforeFindOne', uid: 'api::article.article', populate: ['deep'] },
        { action: 'beforeFindOne', uid: 'api::homepage.homepage', populate: ['deep'] },
      ]);
    });

    it("populates what the hook's object names: relations, components, dynamic zones and media, to its depth", async () => {
      // the app's config/plugins sets defaultDepth 2 over the plugin's 3
      const two = (await api().get('/api/articles?populate=deep').expect(200)).body;
      const attributes = two.data[0].attributes;
      expect(attributes.cover).to.deep.equal({ data: null });
      expect(attributes.category.data.attributes).to.include({ name: 'News' });
      expect(attributes.category.data.attributes).not.to.have.property('articles');
      // a component at the last level: its own fields only
      expect(attributes.seo).to.include({ metaTitle: 'Hello!' });
      expect(attributes.seo).not.to.have.property('image');
      expect(
        attributes.blocks.map((block: { label?: string; text?: string }) => block.label ?? block.text),
      ).to.deep.equal(['Quoted', 'More']);
      expect(attributes.blocks[1]).not.to.have.property('links');
      // the users-permissions user is not the public's to read: left out, as Strapi sanitizes it
      expect(attributes).not.to.have.property('owner');
      expect(two.meta.pagination).to.deep.equal({ page: 1, pageSize: 25, pageCount: 1, total: 1 });

      const three = (await api().get('/api/articles?populate=deep,3').expect(200)).body.data[0].attributes;
      const nested = three.category.data.attributes.articles.data;
      expect(nested.map((entry: { id: number }) => entry.id)).to.deep.equal([1]);
      expect(nested[0].attributes).to.include({ title: 'Hello' });
      expect(three.seo.image).to.deep.equal({ data: null });
      expect(three.blocks[1].links).to.deep.equal([{ id: 1, url: 'https://example.com' }]);
      expect(three.blocks[0].source.data.attributes).to.include({ name: 'News' });
    });

    it('works on findOne and single types, and leaves other populate forms to the read as before', async () => {
      const one = (await api().get('/api/articles/1?populate=deep,3').expect(200)).body;
      expect(one.data.attributes.category.data.attributes.articles.data).to.have.length(1);
      expect(one.data.attributes.seo.image).to.deep.equal({ data: null });
      const home = (await api().get('/api/homepage?populate=deep,3').expect(200)).body;
      expect(home.data.attributes.featured.data.attributes.category.data.attributes).to.include({ name: 'News' });
      expect(home.data.attributes.seo).to.include({ metaTitle: 'Home' });
      const plain = (await api().get('/api/articles?populate[0]=category').expect(200)).body;
      expect(plain.data[0].attributes.category.data.attributes).to.include({ name: 'News' });
      expect(plain.data[0].attributes).not.to.have.property('seo');
    });

    it('reads its settings through strapi.plugin(name).config and strapi.config plugin.<name>', async () => {
      const { settings } = (await api().get('/api/acme-deep/seen').expect(200)).body as { settings: unknown };
      expect(settings).to.deep.equal({ defaultDepth: 2 });
    });
  });

  describe('a plugin with a content-type, routes, controllers and services', () => {
    it('serves its content-API routes under /api/<plugin>, storing entries of its own content-type', async () => {
      const created = await api().post('/api/board/pins').send({ text: 'first' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.include({ text: 'pin:first' });
      const listed = (await api().get('/api/board/pins').expect(200)).body;
      expect(listed).to.deep.equal({ pins: [{ id: created.body.id, text: 'pin:first' }], max: 3 });
      const stored = await service.context.models
        .collection('plugin::board.pin')
        .aggregate<{ text: string }>([{ $project: { _id: 0, text: 1 } }])
        .toArray();
      expect(stored).to.deep.equal([{ text: 'pin:first' }]);
    });

    it('accepts its admin-panel permission registrations and does not serve its admin routes', async () => {
      expect(warnings().filter((message) => message.includes('"board"'))).to.deep.equal([]);
      await api().get('/api/board/settings').expect(404);
      const info = lines.filter((line) => line.level === 30).map((line) => String(line.msg));
      expect(info.some((message) => /admin routes of plugins are not served.*\bboard\b/.test(message))).to.equal(true);
    });
  });

  describe('what does not run, and what fails', () => {
    it('does not run a plugin config/plugins turns off', async () => {
      await api().get('/api/off/here').expect(404);
      expect(warnings().join('\n')).not.to.contain('the plugin turned off ran');
    });

    it('goes on when a bootstrap calls an API the service lacks, with one warning naming the plugin and the reason', async () => {
      expect(warnings().filter((message) => message.includes('"broken"'))).to.deep.equal([
        'the plugin "broken" (strapi-plugin-broken) failed in bootstrap(): strapi.db.connection is not supported by Content Service: it offers query(uid), lifecycles, transaction(cb), inTransaction(), metadata; its later lifecycle functions are not run',
      ]);
      // its routes are declared, so served
      expect((await api().get('/api/broken/ping').expect(200)).body).to.deep.equal({ pong: true });
    });

    it('skips the bootstrap of a plugin whose register threw', () => {
      expect(warnings()).to.include(
        'the plugin "wobbly" (@acme/strapi-plugin-wobbly) failed in register(): wobbly cannot register; its later lifecycle functions are not run',
      );
      expect((globalThis as { __wobblyBootstrapped?: unknown }).__wobblyBootstrapped).to.equal(undefined);
    });

    it('leaves out a plugin whose server code cannot load, or whose content-type cannot be stored', () => {
      expect(warnings()).to.include(
        'the plugin "needs-more" is not run: strapi-plugin-needs-more: requires the package "some-package-nobody-installed", which is not installed: run "npm install some-package-nobody-installed" in the app directory, or remove what uses it',
      );
      // an async validator's refusal, awaited (Strapi leaves it an unhandled rejection)
      expect(warnings()).to.include(
        'the plugin "builds" is not run: strapi-plugin-builds: Error regarding builds config: A URL is required',
      );
      const morph = warnings().find((message) => message.includes('"morph"'));
      expect(morph).to.match(
        /^the plugin "morph" is not run: its content-type cannot be stored by this service: .*unknown morph target "plugin::morph.note"/,
      );
      expect(service.context.registry.contentType('plugin::morph.task')).to.equal(undefined);
    });

    it("leaves a plugin named like a built-in one to the built-in (warning unless it is Strapi's own package)", async () => {
      expect(warnings()).to.include(
        'the plugin package "strapi-plugin-fake-graphql" is not run: its name "graphql" is the name of a plugin this service has built in, which is used instead',
      );
      expect(warnings().join('\n')).not.to.contain('plugin-i18n');
      const res = await api().post('/graphql').send({ query: '{ articles { data { id } } }' }).expect(200);
      expect(res.body.data.articles.data).to.deep.equal([{ id: '1' }]);
    });

    it('passes quietly over a dependency that is not installed, one that is no plugin and an admin-only plugin', () => {
      const said = lines.map((line) => String(line.msg)).join('\n');
      for (const name of ['not-installed', 'left-pad', 'admin-only']) expect(said).not.to.contain(name);
      expect(warnings()).to.have.length(6);
    });

    it("does not list the installed plugins' config/plugins entries as unused", () => {
      const unused = lines.find((line) => String(line.msg).startsWith('configuration not used'));
      expect(String(unused?.msg ?? '')).not.to.contain('acme-deep');
    });
  });
});

describe('populate=deep without the plugin that answers it', () => {
  it('populates nothing (Strapi ignores the unknown name), and the plugin off runs no hook', async () => {
    const appDir = await pluginApp();
    const service = await createTestService({
      appDir,
      logger: capturingLogger('error').logger,
      config: {
        plugins: { 'acme-deep': { enabled: false, config: {} }, off: { enabled: false, config: {} } },
      },
    });
    try {
      const strapi = globalThis.strapi as unknown as {
        entityService: { create(uid: string, params: unknown): Promise<{ id: number }> };
      };
      const news = await strapi.entityService.create('api::category.category', { data: { name: 'News' } });
      await strapi.entityService.create('api::article.article', {
        data: { title: 'Hello', category: news.id, seo: { metaTitle: 'Hello!' } },
      });
      const res = await request(service.app).get('/api/articles?populate=deep').expect(200);
      expect(Object.keys(res.body.data[0].attributes).sort()).to.deep.equal(['createdAt', 'title', 'updatedAt']);
      await request(service.app).get('/api/acme-deep/seen').expect(404);
    } finally {
      await service.close();
    }
  });
});

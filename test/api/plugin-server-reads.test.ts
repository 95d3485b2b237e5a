// What plugins' server code reads of Strapi 4.26 besides the content API (strapi-plugin-navigation
// 2.x reads all three): `strapi.contentTypes[uid].options` (its `draftAndPublish`), `pluginOptions`,
// `apiName` / `plugin`; `strapi.plugin('i18n').service('locales')` (`getDefaultLocale`, `find`);
// and the GraphQL scalar `I18NLocaleCode`, which Strapi's i18n registers even when no type is
// localized (a plugin's GraphQL extension types its arguments with it).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeFiles } from '../helpers/temp-app.js';

const PAGE = {
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: true, comment: 'kept' },
  pluginOptions: { 'content-manager': { visible: true } },
  attributes: { title: { type: 'string' } },
};

const INDEX = `module.exports = {
  register({ strapi }) {
    strapi.server.routes({ type: 'content-api', routes: [
      { method: 'GET', path: '/reads', config: { auth: false }, handler: async (ctx) => {
        const page = strapi.contentTypes['api::page.page'];
        const user = strapi.contentTypes['plugin::users-permissions.user'];
        const locales = strapi.plugin('i18n').service('locales');
        ctx.body = {
          page: { options: page.options, pluginOptions: page.pluginOptions, apiName: page.apiName, plugin: page.plugin },
          user: { draftAndPublish: user.options.draftAndPublish, plugin: user.plugin },
          defaultLocale: await locales.getDefaultLocale(),
          codes: (await locales.find({})).map((locale) => locale.code),
          french: await locales.findByCode('fr'),
          count: await locales.count({ code: 'fr' }),
          marked: (await locales.setIsDefault(await locales.find({}))).map((l) => l.isDefault),
        };
      } },
    ] });
  },
};
`;

describe('what plugins read of Strapi from server code', () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-plugin-reads-'));
    await writeFiles(appDir, {
      'config/permissions.json': '{}',
      'config/plugins.json': JSON.stringify({
        i18n: { enabled: true, config: { locales: ['en', { code: 'fr', name: 'French (fr)' }], defaultLocale: 'fr' } },
        graphql: { enabled: true },
      }),
      'src/api/page/content-types/page/schema.json': JSON.stringify(PAGE),
      'src/index.js': INDEX,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("a content-type's options, pluginOptions and namespace; the i18n locales service", async () => {
    const res = await request(service.app).get('/api/reads').expect(200);
    expect(res.body.page).to.deep.equal({
      options: { draftAndPublish: true, comment: 'kept' },
      pluginOptions: { 'content-manager': { visible: true } },
      apiName: 'page',
    });
    expect(res.body.user).to.deep.equal({ draftAndPublish: false, plugin: 'users-permissions' });
    expect(res.body.defaultLocale).to.equal('fr');
    expect(res.body.codes).to.deep.equal(['en', 'fr']);
    expect(res.body.french).to.include({ id: 2, code: 'fr', name: 'French (fr)' });
    expect(res.body.count).to.equal(1);
    expect(res.body.marked).to.deep.equal([false, true]);
  });

  it('GraphQL has the I18NLocaleCode scalar with i18n on and no localized type', async () => {
    const res = await request(service.app)
      .post('/graphql')
      .send({ query: '{ __type(name: "I18NLocaleCode") { kind name } }' })
      .expect(200);
    expect(res.body.data.__type).to.deep.equal({ kind: 'SCALAR', name: 'I18NLocaleCode' });
  });
});

const JOURNAL = {
  kind: 'collectionType',
  collectionName: 'journals',
  info: { singularName: 'journal', pluralName: 'journals', displayName: 'Journal' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    uid: { type: 'uid', targetField: 'title' },
    meta: { type: 'component', component: 'shared.meta', repeatable: false },
  },
};

const META = {
  collectionName: 'components_shared_metas',
  info: { displayName: 'Meta' },
  attributes: { keywords: { type: 'string' } },
};

// as strapi-plugin-soft-delete's register: the attribute on both, the schema and its __schema__
const SCHEMA_INDEX = `module.exports = {
  register({ strapi }) {
    const journal = strapi.contentTypes['api::journal.journal'];
    journal.attributes.archivedAt = { type: 'datetime', private: true };
    journal.__schema__.attributes.archivedAt = { type: 'datetime', private: true };
    strapi.server.routes({ type: 'content-api', routes: [
      { method: 'GET', path: '/schema-reads', config: { auth: false }, handler: (ctx) => {
        const schema = strapi.contentTypes['api::journal.journal'].__schema__;
        ctx.body = {
          schema,
          targetField: schema.attributes.uid.targetField,
          component: strapi.components['shared.meta'].__schema__,
          withTimestamps: Object.keys(strapi.contentTypes['api::journal.journal'].attributes).includes('createdAt'),
        };
      } },
    ] });
  },
};
`;

describe("a content-type's __schema__ (the schema as its file declared it)", () => {
  let service: TestService;
  before(async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-schema-reads-'));
    await writeFiles(appDir, {
      'config/permissions.json': JSON.stringify({
        public: ['api::journal.journal.create', 'api::journal.journal.find'],
      }),
      'src/api/journal/content-types/journal/schema.json': JSON.stringify(JOURNAL),
      'src/components/shared/meta.json': JSON.stringify(META),
      'src/index.js': SCHEMA_INDEX,
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it("answers Strapi's picked schema: declared attributes (and what register added there), kind; a component's file", async () => {
    const res = await request(service.app).get('/api/schema-reads').expect(200);
    expect(res.body.schema).to.deep.equal({
      collectionName: 'journals',
      info: JOURNAL.info,
      options: { draftAndPublish: false },
      attributes: { ...JOURNAL.attributes, archivedAt: { type: 'datetime', private: true } },
      kind: 'collectionType',
    });
    expect(res.body.targetField).to.equal('title');
    expect(res.body.component).to.deep.equal(META);
    expect(res.body.withTimestamps).to.equal(true);
  });

  it('stores the attribute register put on the schema beside its __schema__', async () => {
    const created = await request(service.app)
      .post('/api/journals')
      .send({ data: { title: 'First', archivedAt: '2024-01-02T03:04:05.000Z' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const stored = await service.context.models
      .collection('api::journal.journal')
      .aggregate<{ archivedAt?: Date }>([{ $project: { _id: 0, archivedAt: 1 } }])
      .toArray();
    expect(stored.map((doc) => doc.archivedAt?.toISOString())).to.deep.equal(['2024-01-02T03:04:05.000Z']);
    expect(created.body.data.attributes).not.to.have.property('archivedAt');
  });
});

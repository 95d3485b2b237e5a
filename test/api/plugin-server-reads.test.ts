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

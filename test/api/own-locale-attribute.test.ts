// A content-type without i18n may have an attribute of its own named `locale` (met in
// greenpeace/gpea-headless_cms-strapi: a `market` with a unique, required `locale` string). Strapi
// reserves the name only on localized types, where i18n adds it; elsewhere it is read, filtered,
// sorted, written and exposed in GraphQL like any other attribute, and the i18n `locale` query
// parameter does not apply to it.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const MARKET = {
  kind: 'collectionType',
  collectionName: 'markets',
  info: { singularName: 'market', pluralName: 'markets', displayName: 'Market' },
  options: { draftAndPublish: false },
  attributes: {
    market: { type: 'string', required: true },
    locale: { type: 'string', unique: true, required: true },
    pages: { type: 'relation', relation: 'oneToMany', target: 'api::page.page', mappedBy: 'market' },
  },
};
const PAGE = {
  kind: 'collectionType',
  collectionName: 'pages',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: false },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    title: { type: 'string' },
    market: { type: 'relation', relation: 'manyToOne', target: 'api::market.market', inversedBy: 'pages' },
  },
};
const SITE = {
  kind: 'singleType',
  collectionName: 'sites',
  info: { singularName: 'site', pluralName: 'sites', displayName: 'Site' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    locale: { type: 'string' },
    seo: { type: 'component', component: 'shared.seo' },
  },
};
const SEO = {
  collectionName: 'components_shared_seos',
  info: { displayName: 'Seo' },
  attributes: { locale: { type: 'string' } },
};
const ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];
const PERMISSIONS = {
  public: [
    ...ACTIONS.map((action) => `api::market.market.${action}`),
    ...ACTIONS.map((action) => `api::page.page.${action}`),
    'api::site.site.find',
    'api::site.site.update',
  ],
};

describe('an attribute named locale on a content-type without i18n', () => {
  let service: TestService;
  const api = () => request(service.app);
  const locales = (body: { data: Array<{ attributes: { locale: string } }> }) =>
    body.data.map((entry) => entry.attributes.locale);

  before(async () => {
    const appDir = await writeTempProject({
      'src/api/market/content-types/market/schema.json': json(MARKET),
      'src/api/page/content-types/page/schema.json': json(PAGE),
      'src/api/site/content-types/site/schema.json': json(SITE),
      'src/components/shared/seo.json': json(SEO),
      'config/permissions.json': json(PERMISSIONS),
      'config/plugins.js': `module.exports = { i18n: { config: { locales: [{ code: 'en', name: 'English' }, { code: 'fr', name: 'French' }] } } };`,
    });
    service = await createTestService({ appDir });
    for (const [market, locale] of [
      ['Hong Kong', 'zh-HK'],
      ['Taiwan', 'zh-TW'],
      ['Korea', 'ko-KR'],
    ]) {
      await api().post('/api/markets').send({ data: { market, locale } }).expect(200);
    }
  });
  after(() => service.close());

  it("is written and answered as the entry's own attribute", async () => {
    const created = await api()
      .post('/api/markets?locale=fr')
      .send({ data: { market: 'Japan', locale: 'ja-JP' } })
      .expect(200);
    expect(created.body.data.attributes).to.include({ market: 'Japan', locale: 'ja-JP' });
    const id = created.body.data.id as number;
    const updated = await api()
      .put(`/api/markets/${id}`)
      .send({ data: { locale: 'ja' } })
      .expect(200);
    expect(updated.body.data.attributes.locale).to.equal('ja');
    await api().delete(`/api/markets/${id}`).expect(200);
  });

  it('is validated like any attribute: required and unique', async () => {
    const missing = await api()
      .post('/api/markets')
      .send({ data: { market: 'Nowhere' } })
      .expect(400);
    expect(missing.body.error.details.errors[0]).to.deep.include({
      path: ['locale'],
      message: 'locale must be defined.',
    });
    const taken = await api()
      .post('/api/markets')
      .send({ data: { market: 'Again', locale: 'zh-HK' } })
      .expect(400);
    expect(taken.body.error.message).to.equal('This attribute must be unique');
    expect((await api().get('/api/markets').expect(200)).body.meta.pagination.total).to.equal(3);
  });

  it('is filtered, sorted and selected; the i18n locale parameter does not apply', async () => {
    expect(locales((await api().get('/api/markets?filters[locale][$startsWith]=zh').expect(200)).body)).to.deep.equal([
      'zh-HK',
      'zh-TW',
    ]);
    expect(locales((await api().get('/api/markets?sort=locale:desc').expect(200)).body)).to.deep.equal([
      'zh-TW',
      'zh-HK',
      'ko-KR',
    ]);
    const selected = await api().get('/api/markets?fields[0]=locale&sort=id').expect(200);
    expect(selected.body.data[0].attributes).to.deep.equal({ locale: 'zh-HK' });
    // Strapi's entity service reads `locale` only for localized types: every market is listed
    expect(locales((await api().get('/api/markets?locale=ko-KR').expect(200)).body)).to.have.length(3);
    expect(locales((await api().get('/api/markets?locale[$eq]=ko-KR').expect(200)).body)).to.have.length(3);
  });

  it("is populated from a localized type, whose own locale is i18n's", async () => {
    const market = (await api().get('/api/markets?filters[locale]=zh-TW').expect(200)).body.data[0].id as number;
    await api()
      .post('/api/pages')
      .send({ data: { title: 'Bonjour', locale: 'fr', market } })
      .expect(200);
    const pages = await api().get('/api/pages?locale=fr&populate[market][fields][0]=locale').expect(200);
    expect(pages.body.data).to.have.length(1);
    expect(pages.body.data[0].attributes.locale).to.equal('fr');
    expect(pages.body.data[0].attributes.market.data.attributes).to.deep.equal({ locale: 'zh-TW' });
    const filtered = await api().get('/api/pages?locale=all&filters[market][locale][$eq]=zh-TW').expect(200);
    expect(filtered.body.data.map((page: { attributes: { title: string } }) => page.attributes.title)).to.deep.equal([
      'Bonjour',
    ]);
  });

  it('is an ordinary attribute of a single type and of a component', async () => {
    const written = await api()
      .put('/api/site?locale=fr')
      .send({ data: { name: 'Site', locale: 'en-GB', seo: { locale: 'de' } } })
      .expect(200);
    expect(written.body.data.attributes).to.include({ name: 'Site', locale: 'en-GB' });
    const read = await api().get('/api/site?locale=fr&populate=seo').expect(200);
    expect(read.body.data.attributes.locale).to.equal('en-GB');
    expect(read.body.data.attributes.seo).to.include({ locale: 'de' });
    // still one entry: a second write updates it
    await api()
      .put('/api/site')
      .send({ data: { locale: 'en-US' } })
      .expect(200);
    expect(await service.context.connection.db!.collection('sites').countDocuments()).to.equal(1);
  });

  it('is a GraphQL field, filter and input, without the i18n locale argument', async () => {
    const gql = (query: string) => api().post('/graphql').send({ query });
    const listed = await gql(
      '{ markets(filters: { locale: { eq: "ko-KR" } }) { data { attributes { market locale } } } }',
    );
    expect(listed.body).to.deep.equal({
      data: { markets: { data: [{ attributes: { market: 'Korea', locale: 'ko-KR' } }] } },
    });
    const created = await gql(
      'mutation { createMarket(data: { market: "Vietnam", locale: "vi-VN" }) { data { attributes { locale } } } }',
    );
    expect(created.body.data.createMarket.data.attributes.locale).to.equal('vi-VN');
    const withArgument = await gql('{ markets(locale: "fr") { data { id } } }');
    expect(withArgument.body.errors[0].message).to.equal('Unknown argument "locale" on field "Query.markets".');
  });

  it('stays reserved on a localized content-type', async () => {
    const appDir = await writeTempProject({
      'src/api/page/content-types/page/schema.json': json({
        ...PAGE,
        attributes: { title: { type: 'string' }, locale: { type: 'string' } },
      }),
    });
    let failure: unknown;
    try {
      await (await createTestService({ appDir })).close();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).to.match(/page\/schema\.json.*"locale" is reserved on a localized content-type/);
  });
});

// Parallel writes to the localizations of one document over HTTP, then what is stored checked
// with a raw driver: the attributes they share (Strapi's non-localized ones) stay equal in all.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { range, startCluster, statuses, type Cluster, type RawDoc } from './helpers.js';

const KINDS = ['news', 'opinion', 'review', 'tutorial'];
const shared = (doc: RawDoc) => `${String(doc.readingTime)}/${String(doc.kind)}`;

for (const instances of [1, 2]) {
  describe(`concurrent writes to one document's localizations (${instances} service instance${instances > 1 ? 's' : ''})`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(instances);
    });
    after(() => cluster.close());

    const newDocument = async (): Promise<{ en: number; fr: number }> => {
      const en = await cluster.post(0, '/api/articles', { data: { title: 'shared en' } });
      expect(en.status).to.equal(200);
      const fr = await cluster.post(0, `/api/articles/${en.body.data.id}/localizations`, { locale: 'fr', title: 'fr' });
      expect(fr.status).to.equal(200);
      return { en: en.body.data.id as number, fr: fr.body.id as number };
    };
    const group = async (en: number) => {
      const [source] = await cluster.docs('articles', { _id: en });
      return cluster.docs('articles', { localeGroup: source!.localeGroup });
    };

    it('updates of the shared attributes from two locales in parallel leave every localization equal', async () => {
      const { en, fr } = await newDocument();
      for (let round = 0; round < 4; round++) {
        const responses = await Promise.all(
          range(0, 9).map((i) =>
            cluster.put(i, i % 2 ? `/api/articles/${en}` : `/api/articles/${fr}?locale=fr`, {
              data: { readingTime: round * 100 + i, kind: KINDS[i % 4] },
            }),
          ),
        );
        expect(statuses(responses)).to.deep.equal({ 200: 10 });
        const docs = await group(en);
        expect(docs).to.have.length(2);
        expect(new Set(docs.map(shared)).size).to.equal(1);
      }
    });

    it('a localization created while the shared attributes change has the values the others end with', async () => {
      for (let round = 0; round < 4; round++) {
        const en = await cluster.post(0, '/api/articles', { data: { title: 'alone' } });
        const id = en.body.data.id as number;
        const responses = await Promise.all([
          cluster.post(1, `/api/articles/${id}/localizations`, { locale: 'fr', title: 'fr' }),
          ...range(0, 5).map((i) =>
            cluster.put(i, `/api/articles/${id}`, { data: { readingTime: round * 10 + i, kind: KINDS[i % 4] } }),
          ),
        ]);
        expect(statuses(responses)).to.deep.equal({ 200: 7 });
        const docs = await group(id);
        expect(docs.map((d) => d.locale).sort()).to.deep.equal(['en', 'fr']);
        expect(new Set(docs.map(shared)).size).to.equal(1);
      }
    });

    it('a localization created racing the delete of its entry is made from it whole, or answered 404 with nothing stored', async () => {
      for (let round = 0; round < 8; round++) {
        const en = await cluster.post(0, '/api/articles', {
          data: { title: `deleted en ${round}`, readingTime: round },
        });
        const id = en.body.data.id as number;
        const [source] = await cluster.docs('articles', { _id: id });
        // the creation starts a little later each round, so both orders occur (any order must hold)
        const [fr, deleted] = await Promise.all([
          new Promise((resolve) => setTimeout(resolve, round * 4)).then(() =>
            cluster.post(round, `/api/articles/${id}/localizations`, { locale: 'fr', title: `fr ${round}` }),
          ),
          cluster.del(round + 1, `/api/articles/${id}`),
        ]);
        expect(deleted.status).to.equal(200);
        const left = await cluster.docs('articles', { localeGroup: source!.localeGroup });
        if (fr.status === 200) {
          expect(left.map((d) => [d._id, d.locale, d.readingTime])).to.deep.equal([[fr.body.id, 'fr', round]]);
          // the deleted entry is not listed among its localizations
          const read = await cluster.get(
            `/api/articles/${fr.body.id as number}?locale=fr&populate=localizations&publicationState=preview`,
          );
          expect(read.status).to.equal(200);
          expect(read.body.data.attributes.localizations.data).to.deep.equal([]);
        } else {
          expect(fr.status, JSON.stringify(fr.body)).to.equal(404);
          expect(left).to.deep.equal([]);
        }
      }
    });
  });
}

// an app's create hook, run inside the creation of a localization (which holds the group's lease),
// updating what that document's localizations share: the lease is the same work's, so no wait
const SYNCING_HOOK = `module.exports = {
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['api::page.page'],
      async afterCreate(event) {
        const source = event.params.data.sourceId;
        if (event.result.locale === 'fr' && source) {
          await strapi.entityService.update('api::page.page', source, { data: { rank: 7 } });
        }
      },
    });
  },
};
`;

describe('a lifecycle hook of a localization writing what the localizations share', function () {
  this.timeout(10_000);
  let service: TestService;
  before(async () => {
    const appDir = await writeTempApp({
      api: {
        page: {
          kind: 'collectionType',
          collectionName: 'pages',
          info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
          pluginOptions: { i18n: { localized: true } },
          attributes: {
            title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
            sourceId: { type: 'integer', pluginOptions: { i18n: { localized: true } } },
            rank: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
          },
        },
      },
      config: {
        plugins: {
          i18n: { enabled: true, config: { defaultLocale: 'en', locales: [{ code: 'en' }, { code: 'fr' }] } },
        },
        permissions: { public: ['api::page.page.create', 'api::page.page.createLocalization'] },
      },
      files: { 'src/index.js': SYNCING_HOOK },
    });
    service = await createTestService({ appDir });
  });
  after(() => service.close());

  it('runs at once: the lease of the group is re-entrant within the creation that holds it', async () => {
    const en = await request(service.app)
      .post('/api/pages')
      .send({ data: { title: 'en', rank: 1 } });
    expect(en.status, JSON.stringify(en.body)).to.equal(200);
    const id = en.body.data.id as number;
    const started = Date.now();
    const fr = await request(service.app)
      .post(`/api/pages/${id}/localizations`)
      .send({ locale: 'fr', title: 'fr', sourceId: id });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    expect(Date.now() - started).to.be.below(5_000);
    const docs = await service.context.models.collection('api::page.page').find({}).toArray();
    expect(docs.map((d) => (d as { rank?: number }).rank)).to.deep.equal([7, 7]);
  });
});

// Check-then-write under races: parallel requests that may each pass a check before any of them
// writes. The database's unique indexes (and, for oneToOne links, the claim protocol) decide.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService, freshDatabaseUri, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { createMany, range, startCluster, statuses, type Cluster } from './helpers.js';

for (const instances of [1, 2]) {
  describe(`check-then-write under races (${instances} service instance${instances > 1 ? 's' : ''})`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(instances);
    });
    after(() => cluster.close());

    it('30 parallel POST /localizations of one locale create exactly one entry', async () => {
      const [source] = await createMany(cluster, 'articles', 1, () => ({ title: 'source' }));
      const responses = await Promise.all(
        range(1, 30).map((i) =>
          cluster.post(i, `/api/articles/${source}/localizations`, { locale: 'fr', title: `fr ${i}` }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 1, 400: 29 });
      for (const res of responses.filter((r) => r.status === 400))
        expect(res.body.error).to.include({ name: 'ApplicationError', message: 'locale is already used' });
      expect(await cluster.docs('articles', { localeGroup: source, locale: 'fr' })).to.have.length(1);
    });

    it('parallel creates with `localizations` and the localization route keep one entry per (group, locale)', async () => {
      const [source] = await createMany(cluster, 'articles', 1, () => ({ title: 'source 2' }));
      const responses = await Promise.all(
        range(1, 32).map((i) =>
          i % 2 === 0
            ? cluster.post(i, '/api/articles?locale=fr', { data: { title: `fr ${i}`, localizations: [source] } })
            : cluster.post(i, `/api/articles/${source}/localizations`, { locale: 'fr', title: `fr ${i}` }),
        ),
      );
      expect(statuses(responses)[200]).to.equal(1);
      expect(statuses(responses)[500]).to.equal(undefined);
      expect(await cluster.docs('articles', { localeGroup: source, locale: 'fr' })).to.have.length(1);
    });

    it('a oneToOne target linked by 30 authors in parallel is held by exactly one', async () => {
      const [profile] = await createMany(cluster, 'author-profiles', 1, () => ({ handle: `p${instances}` }));
      const authors = await createMany(cluster, 'authors', 30, (i) => ({ name: `holder ${i}` }));
      const responses = await Promise.all(
        authors.map((author, i) =>
          i % 3 === 0
            ? cluster.put(i, `/api/author-profiles/${profile}`, { data: { author } })
            : cluster.put(i, `/api/authors/${author}`, { data: { profile } }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 30 });
      expect(await cluster.docs('authors', { profile })).to.have.length(1);
    });

    it('30 parallel unique values: one is created, the others are 400', async () => {
      const responses = await Promise.all(
        range(1, 30).map((i) =>
          cluster.post(i, '/api/categories', { data: { name: `same-${instances}`, slug: `s-${instances}-${i}` } }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 1, 400: 29 });
      expect(await cluster.docs('categories', { name: `same-${instances}` })).to.have.length(1);
    });

    it('30 parallel uid values: one is created, the others are 400', async () => {
      const responses = await Promise.all(
        range(1, 30).map((i) =>
          cluster.post(i, '/api/tags', { data: { name: `n-${i}`, slug: `same-slug-${instances}` } }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 1, 400: 29 });
      expect(await cluster.docs('tags', { slug: `same-slug-${instances}` })).to.have.length(1);
    });

    it('parallel first PUTs of a single type create one entry', async () => {
      const responses = await Promise.all(
        range(1, 30).map((i) => cluster.put(i, '/api/homepage', { data: { title: `home ${i}` } })),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 30 });
      expect(await cluster.docs('homepages')).to.have.length(1);
    });

    // bcrypt makes each registration slow: defined once, on two instances
    if (instances === 2)
      it('parallel registrations with one e-mail or one username create one user', async () => {
        const register = (i: number, body: object) =>
          request(cluster.services[i % instances].app)
            .post('/api/auth/local/register')
            .send(body);
        const responses = await Promise.all([
          ...range(1, 15).map((i) =>
            register(i, { username: `mail${i}`, email: 'same@example.com', password: 'Password1' }),
          ),
          ...range(1, 15).map((i) =>
            register(i, { username: 'samename', email: `n${i}@example.com`, password: 'Password1' }),
          ),
        ]);
        expect(statuses(responses)).to.deep.equal({ 200: 2, 400: 28 });
        expect(await cluster.docs('up_users', { email: 'same@example.com' })).to.have.length(1);
        expect(await cluster.docs('up_users', { username: 'samename' })).to.have.length(1);
      });

    it('parallel roles of one name create one role', async () => {
      const responses = await Promise.all(
        range(1, 30).map((i) =>
          cluster.post(i, '/api/users-permissions/roles', { name: 'Editors', description: `${i}` }),
        ),
      );
      expect(statuses(responses)).to.deep.equal({ 200: 1, 400: 29 });
      expect(await cluster.docs('up_roles', { type: 'editors' })).to.have.length(1);
    });
  });
}

describe('parallel first PUTs of a localized single type (2 service instances)', function () {
  this.timeout(60_000);
  const services: TestService[] = [];
  before(async () => {
    const appDir = await writeTempApp({
      api: {
        site: {
          kind: 'singleType',
          collectionName: 'sites',
          info: { singularName: 'site', pluralName: 'sites', displayName: 'Site' },
          options: { draftAndPublish: true },
          pluginOptions: { i18n: { localized: true } },
          attributes: { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } },
        },
      },
      config: {
        plugins: {
          i18n: {
            enabled: true,
            config: { defaultLocale: 'en', locales: [{ code: 'en' }, { code: 'fr' }, { code: 'de' }] },
          },
        },
        permissions: { public: ['api::site.site.update', 'api::site.site.find'] },
      },
    });
    const uri = freshDatabaseUri();
    for (let i = 0; i < 2; i++) services.push(await createTestService({ appDir }, uri));
  });
  after(async () => {
    await services[1]?.stop();
    await services[0]?.close();
  });

  it('make one entry per locale', async () => {
    const locales = ['en', 'fr', 'de'];
    const responses = await Promise.all(
      range(0, 29).map((i) =>
        request(services[i % 2]!.app)
          .put(`/api/site?locale=${locales[i % 3]}`)
          .send({ data: { title: `site ${i}` } }),
      ),
    );
    expect(statuses(responses)).to.deep.equal({ 200: 30 });
    const stored = await services[0]!.context.models.collection('api::site.site').find({}).toArray();
    expect(stored.map((doc) => (doc as { locale?: string }).locale).sort()).to.deep.equal(['de', 'en', 'fr']);
  });
});

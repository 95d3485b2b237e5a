import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `locale` over HTTP on the localized article type. */
describe('REST locale', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = (envelope: { data: { id: number }[] }) => envelope.data.map((entry) => entry.id);

  it('GET /api/i18n/locales needs plugin::i18n.locales.listLocales, as in Strapi 4.26', async () => {
    // the demo app grants it to the public role; a caller without it is refused
    const other = await createApiToken(service.context, {
      name: 'articles only',
      type: 'custom',
      actions: ['api::article.article.find'],
    });
    const denied = await get('/api/i18n/locales').set('Authorization', `Bearer ${other.accessKey}`);
    expect([denied.status, denied.body.error?.name]).to.deep.equal([403, 'ForbiddenError']);
    const { accessKey } = await createApiToken(service.context, {
      name: 'locales',
      type: 'custom',
      actions: ['plugin::i18n.locales.listLocales'],
    });
    const listed = await get('/api/i18n/locales').set('Authorization', `Bearer ${accessKey}`);
    const stamp = listed.body[0]?.createdAt;
    expect(new Date(stamp).toISOString()).to.equal(stamp);
    // Strapi's keys in Strapi's order, the timestamps of the locale rows included
    expect(listed.body.map((locale: object) => Object.keys(locale))).to.deep.equal([
      ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
      ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
    ]);
    expect([listed.status, listed.body]).to.deep.equal([
      200,
      [
        { id: 1, name: 'English (en)', code: 'en', createdAt: stamp, updatedAt: stamp, isDefault: true },
        { id: 2, name: 'French (fr)', code: 'fr', createdAt: stamp, updatedAt: stamp, isDefault: false },
      ],
    ]);
  });

  it('lists the default locale when none is asked', async () => {
    const res = await get('/api/articles?fields[0]=locale&pagination[pageSize]=100');
    expect(res.body.meta.pagination.total).to.equal(34);
    expect(
      res.body.data.every((entry: { attributes: { locale: string } }) => entry.attributes.locale === 'en'),
    ).to.equal(true);
  });

  it('lists one locale, or all of them', async () => {
    expect(ids((await get('/api/articles?locale=fr&fields[0]=title')).body)).to.deep.equal([41, 42, 43, 45, 46, 48]);
    expect(
      (await get('/api/articles?locale=all&fields[0]=title&pagination[pageSize]=100')).body.meta.pagination.total,
    ).to.equal(40);
    expect((await get('/api/articles?locale=de&fields[0]=title')).body.data).to.deep.equal([]);
  });

  it('finds by id whatever the locale parameter says', async () => {
    const res = await get('/api/articles/2?locale=fr&fields[0]=title');
    expect(res.body.data).to.deep.equal({ id: 2, attributes: { title: 'Café Culture: A Global Tour' } });
  });

  it('is ignored on types that are not localized (whatever its form)', async () => {
    expect((await get('/api/tags?locale=fr')).body.data).to.have.length(12);
    expect((await get('/api/tags?locale[0]=fr')).body.data).to.have.length(12);
  });

  it("is read as Strapi's i18n filter on locale: empty matches nothing, a list or operators filter", async () => {
    const fr = [41, 42, 43, 45, 46, 48];
    expect(ids((await get('/api/articles?locale=&fields[0]=title')).body)).to.deep.equal([]);
    expect(ids((await get('/api/articles?locale[0]=fr&fields[0]=title')).body)).to.deep.equal(fr);
    expect(ids((await get('/api/articles?locale[$ne]=en&fields[0]=title')).body)).to.deep.equal(fr);
    const both = await get('/api/articles?locale[$in][0]=en&locale[$in][1]=fr&fields[0]=title');
    expect(both.body.meta.pagination.total).to.equal(40);
    // an unknown operator is refused (Strapi drops it, widening to every locale)
    expect((await get('/api/articles?locale[foo]=x')).status).to.equal(400);
  });

  it('populates the other localizations of each entry', async () => {
    const res = await get(
      '/api/articles?locale=fr&fields[0]=title&populate[localizations][fields][0]=locale&pagination[pageSize]=1',
    );
    expect(res.body.data[0]).to.deep.equal({
      id: 41,
      attributes: {
        title: 'Bien démarrer avec Strapi',
        localizations: { data: [{ id: 1, attributes: { locale: 'en' } }] },
      },
    });
  });
});

describe('REST locale fallback (opt-in, beyond Strapi)', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);

  it('answers the asked locale, or the fallback where no visible translation exists, in document order', async () => {
    const res = await get('/api/articles?locale=fr&fallbackLocale=en&fields[0]=locale&pagination[pageSize]=5');
    expect(
      res.body.data.map((entry: { id: number; attributes: { locale: string } }) => [entry.id, entry.attributes.locale]),
    ).to.deep.equal([
      [41, 'fr'],
      [42, 'fr'],
      [43, 'fr'],
      [4, 'en'],
      [6, 'en'],
    ]);
    expect(res.body.meta.pagination.total).to.equal(34);
  });

  it('rejects a fallback that is not a configured locale', async () => {
    expect((await get('/api/articles?locale=fr&fallbackLocale=de')).status).to.equal(400);
  });
});

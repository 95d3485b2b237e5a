import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { replaySeed, seedOperations, writeClient, type WriteClient } from '../helpers/write-client.js';

const ARTICLE = 'api::article.article';

describe('i18n: POST /api/<plural>/:id/localizations', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    // everything of the seed up to (not including) the events: articles 1–40, fr 41–48, their updates
    await replaySeed(client, (op) => op.contentType === 'events');
  });
  after(() => service.close());

  it('the seed localizations got ids 41–48, joined their groups and copied non-localized attributes', async () => {
    const fr = await client.stored(ARTICLE, 43);
    const en = await client.stored(ARTICLE, 3);
    expect(fr).to.include({
      locale: 'fr',
      localeGroup: 3,
      title: 'Croissance 100% bio',
      kind: 'opinion',
      publishDate: '2023-03-22',
      readingTime: 23,
      rating: 1.1,
      price: 39.99,
      featured: false,
    });
    expect(String(fr?.views)).to.equal(String(en?.views));
    expect(fr?.metadata).to.deep.equal(en?.metadata);
    expect(fr).to.deep.include({ author: 3, category: 3, tags: [6] });
    expect((fr?.seo as { id: number }).id).to.be.a('number');
    expect((await client.stored(ARTICLE, 44))?.publishedAt).to.equal(null);
    expect(((await client.stored(ARTICLE, 41))?.publishedAt as Date).toISOString()).to.equal(
      '2024-06-01T12:00:00.000Z',
    );
  });

  it('answers a flat entry with its localizations, a draft unless the body publishes it', async () => {
    const res = await client.post('/api/articles/4/localizations', {
      locale: 'fr',
      title: 'Pourquoi les étoiles',
      slug: 'pourquoi-fr',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ title: 'Pourquoi les étoiles', locale: 'fr', publishedAt: null, kind: 'news' });
    expect(res.body.id).to.be.a('number');
    expect(res.body).to.not.have.property('attributes');
    expect(res.body).to.not.have.property('internalNotes');
    expect(res.body.localizations.map((l: { id: number; locale: string }) => [l.id, l.locale])).to.deep.equal([
      [4, 'en'],
    ]);
    const en = await client.get('/api/articles/4?populate=localizations&publicationState=preview');
    expect(en.body.data.attributes.localizations.data.map((l: { id: number }) => l.id)).to.deep.equal([res.body.id]);
  });

  it('is validated as published unless the body says publishedAt: null; a publishedAt given is kept (Strapi 4.26)', async () => {
    const en = await client.post('/api/articles', { data: { title: 'Published source' } });
    const path = `/api/articles/${en.body.data.id}/localizations`;
    const count = await client.count(ARTICLE);
    const untitled = await client.post(path, { locale: 'fr', summary: 'no title' });
    expect(untitled.status).to.equal(400);
    expect(untitled.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'title must be defined.',
        details: { errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }] },
      },
    });
    expect(await client.count(ARTICLE), 'nothing written').to.equal(count);
    const published = await client.post(path, {
      locale: 'fr',
      title: 'Publiée',
      publishedAt: '2024-01-01T00:00:00.000Z',
    });
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    expect(published.body).to.include({ locale: 'fr', publishedAt: '2024-01-01T00:00:00.000Z' });
    const other = await client.post('/api/articles', { data: { title: 'Draft source' } });
    const draft = await client.post(`/api/articles/${other.body.data.id}/localizations`, {
      locale: 'fr',
      publishedAt: null,
    });
    expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
    expect(draft.body).to.include({ locale: 'fr', title: null, publishedAt: null });
  });

  it('takes a multipart/form-data body: the entry as JSON in `data` (Strapi parseMultipartData)', async () => {
    const en = await client.post('/api/articles', { data: { title: 'Multipart source' } });
    const res = await client
      .post(`/api/articles/${en.body.data.id}/localizations`)
      .field('data', JSON.stringify({ title: 'Source multipart', locale: 'fr' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ title: 'Source multipart', locale: 'fr', publishedAt: null });
    const flat = await client
      .post(`/api/articles/${en.body.data.id}/localizations`)
      .field('title', 'x')
      .field('locale', 'fr');
    expect(flat.status).to.equal(400);
    expect(flat.body.error.message).to.equal(
      'When using multipart/form-data you need to provide your data in a JSON "data" field.',
    );
  });

  it("the shared attributes a new localization's body gives go to the document's other localizations (Strapi 4.26)", async () => {
    const en = await client.post('/api/articles', { data: { title: 'Shared en', views: '5', rating: 2 } });
    const fr = await client.post(`/api/articles/${en.body.data.id}/localizations`, {
      locale: 'fr',
      title: 'Partagé fr',
      views: '9',
      summary: 'localized, stays here',
    });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    expect(fr.body).to.include({ views: '9', rating: 2 });
    const read = await client.get(
      `/api/articles/${en.body.data.id}?publicationState=preview&fields[0]=views&fields[1]=rating&fields[2]=summary`,
    );
    expect(read.body.data.attributes).to.deep.equal({ views: '9', rating: 2, summary: null });
    // a create joining the document through `localizations` shares what it sets the same way
    const taken = await client.post('/api/articles', {
      data: { title: 'Joined', locale: 'fr', views: '11', localizations: [en.body.data.id] },
    });
    expect(taken.status).to.equal(400); // fr is taken in this document
    const other = await client.post('/api/articles', { data: { title: 'Other en', views: '1' } });
    const joined = await client.post('/api/articles', {
      data: { title: 'Joined fr', locale: 'fr', views: '12', localizations: [other.body.data.id] },
    });
    expect(joined.status, JSON.stringify(joined.body)).to.equal(200);
    const otherRead = await client.get(`/api/articles/${other.body.data.id}?fields[0]=views`);
    expect(otherRead.body.data.attributes).to.deep.equal({ views: '12' });
  });

  it('rejects a used, missing or unknown locale and unknown entries; nothing written', async () => {
    const before = await client.count(ARTICLE);
    const used = await client.post('/api/articles/1/localizations', { locale: 'fr', title: 'again' });
    expect(used.status).to.equal(400);
    expect(used.body.error.message).to.equal('locale is already used');
    const usedEn = await client.post('/api/articles/41/localizations', { locale: 'en', title: 'again' });
    expect(usedEn.status).to.equal(400);
    expect((await client.post('/api/articles/2/localizations', { title: 'x' })).body.error.message).to.equal(
      'locale is missing',
    );
    expect(
      (await client.post('/api/articles/2/localizations', { locale: 'de', title: 'x' })).body.error.message,
    ).to.equal('locale is invalid');
    const missing = await client.post('/api/articles/99999/localizations', { locale: 'fr', title: 'x' });
    expect([missing.status, missing.body.error.message]).to.deep.equal([404, 'Entity not found']);
    const invalid = await client.post('/api/articles/6/localizations', { locale: 'fr', title: 'x', tags: [999] });
    expect(invalid.status).to.equal(400);
    expect(await client.count(ARTICLE)).to.equal(before);
  });

  it('only localized collection types have the route', async () => {
    const res = await client.post('/api/notes/1/localizations', { locale: 'fr' });
    expect(res.status).to.be.oneOf([404, 405]);
  });

  it('needs the createLocalization permission', async () => {
    const anonymous = await request(service.app)
      .post('/api/articles/9/localizations')
      .send({ locale: 'fr', title: 'x' });
    expect(anonymous.status).to.be.oneOf([401, 403]);
  });

  it('the seed stays replayable: every localization op has a flat body with its locale', () => {
    const ops = seedOperations.filter((op) => op.localizationOf !== undefined);
    expect(ops).to.have.length(8);
  });
});

describe('i18n: localized single types (PUT ?locale=, POST /api/<singular>/localizations)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        setting: {
          kind: 'singleType',
          collectionName: 'settings',
          info: { singularName: 'setting', pluralName: 'settings', displayName: 'Setting' },
          options: { draftAndPublish: false },
          pluginOptions: { i18n: { localized: true } },
          attributes: {
            greeting: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
            color: { type: 'string', pluginOptions: { i18n: { localized: false } } },
            badge: { type: 'component', component: 'parts.badge', pluginOptions: { i18n: { localized: false } } },
          },
        },
      },
      components: {
        'parts.badge': {
          collectionName: 'components_parts_badges',
          info: { displayName: 'badge' },
          attributes: { label: { type: 'string' } },
        },
      },
      config: { plugins: { i18n: { enabled: true, config: { defaultLocale: 'en', locales: ['en', 'fr'] } } } },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
  });
  after(() => service.close());

  it('one entry per locale; the localization route copies shared attributes', async () => {
    const en = await client.put('/api/setting', { data: { greeting: 'Hello', color: 'blue' } });
    expect(en.status, JSON.stringify(en.body)).to.equal(200);
    const fr = await client.post('/api/setting/localizations', { locale: 'fr', greeting: 'Bonjour' });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(200);
    expect(fr.body).to.include({ greeting: 'Bonjour', color: 'blue', locale: 'fr' });
    const frUpdate = await client.put('/api/setting?locale=fr', { data: { greeting: 'Salut' } });
    expect(frUpdate.body.data.id).to.equal(fr.body.id);
    expect((await client.stored('api::setting.setting', en.body.data.id))?.greeting).to.equal('Hello');
    await client.put('/api/setting', { data: { color: 'red' } });
    expect((await client.stored('api::setting.setting', fr.body.id))?.color).to.equal('red');
    expect(await client.count('api::setting.setting')).to.equal(2);
  });

  it('non-localized components are copied to the other localizations with their own ids', async () => {
    const en = await client.put('/api/setting', { data: { badge: { label: 'new' } } });
    expect(en.status, JSON.stringify(en.body)).to.equal(200);
    const stored = await client.stored('api::setting.setting', en.body.data.id);
    const fr = await client.put('/api/setting?locale=fr', { data: {} });
    const frStored = await client.stored('api::setting.setting', fr.body.data.id);
    expect(frStored?.badge).to.include({ label: 'new' });
    expect((frStored?.badge as { id: number }).id).to.not.equal((stored?.badge as { id: number }).id);
  });
});

import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { bearer, login, registerSeedUsers } from './users-permissions/helpers.js';

/**
 * The requests of Strapi v4 client programs, written out as each library builds them (its version
 * named), answered as Strapi 4.26 answers them: refine's data provider and AuthHelper, react-admin's
 * ra-strapi-v4-rest, gatsby-source-strapi 3's fetchers, @nuxtjs/strapi 1's useStrapi4 and Strapi's
 * nextjs-corporate-starter's fetchAPI.
 */
describe('Strapi v4 client programs', () => {
  let service: TestService;
  let readOnly: string;
  let fullAccess: string;
  let jwt: string;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    await registerSeedUsers(service.app);
    jwt = await login(service.app, 'alice', 'Password123!');
    readOnly = (await createApiToken(service.context, { name: 'site build', type: 'read-only' })).accessKey;
    fullAccess = (await createApiToken(service.context, { name: 'admin panel', type: 'full-access' })).accessKey;
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = (body: { data: { id: number }[] }) => body.data.map((entry) => entry.id);
  type Entry = { id: number; attributes: Record<string, unknown> };

  describe('@refinedev/strapi-v4 7.0.1', () => {
    it('getList: qs-encoded values, then its raw filters after a "&" (a trailing one without filters)', async () => {
      const res = await get('/api/articles?pagination[page]=2&pagination[pageSize]=5&sort=title%3Aasc&');
      expect(res.status).to.equal(200);
      expect(res.body.meta.pagination).to.deep.equal({ page: 2, pageSize: 5, pageCount: 7, total: 34 });
      const sorted = await get('/api/articles?pagination[pageSize]=100&sort=title%3Aasc&fields[0]=title');
      expect(ids(res.body)).to.deep.equal(ids(sorted.body).slice(5, 10));
    });

    it('getList filters: its operator names mapped to Strapi (contains → $containsi, nin → $notIn, nnull → $notNull)', async () => {
      const all = await get('/api/articles?pagination[page]=1&pagination[pageSize]=100&fields[0]=title&');
      const withA = await get(
        '/api/articles?pagination[page]=1&pagination[pageSize]=100&fields[0]=title&filters[title][$containsi]=a',
      );
      const withoutA = await get(
        '/api/articles?pagination[page]=1&pagination[pageSize]=100&fields[0]=title&filters[title][$notContainsi]=a',
      );
      expect(withA.body.meta.pagination.total + withoutA.body.meta.pagination.total).to.equal(34);
      for (const entry of withA.body.data as Entry[])
        expect(String(entry.attributes.title).toLowerCase()).to.contain('a');
      const notIn = await get(
        '/api/articles?pagination[page]=1&pagination[pageSize]=100&filters[id][$notIn][0]=1&filters[id][$notIn][1]=2',
      );
      expect(ids(notIn.body)).to.not.include.members([1, 2]);
      expect(notIn.body.meta.pagination.total).to.equal(32);
      const notNull = await get(
        '/api/articles?pagination[page]=1&pagination[pageSize]=10&filters[title][$notNull]=true',
      );
      expect(notNull.body.meta.pagination.total).to.equal(all.body.meta.pagination.total);
    });

    it('getList with an operator refine passes through unmapped (nstartswith) is a 400 that names it', async () => {
      const res = await get('/api/articles?pagination[page]=1&pagination[pageSize]=10&filters[title][$nstartswith]=a');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ name: 'ValidationError', message: 'Invalid parameter $nstartswith' });
    });

    it('getList with meta.populate, meta.fields and meta.locale; an "or" filter group through a relation', async () => {
      const res = await get(
        '/api/articles?pagination[page]=1&pagination[pageSize]=10&locale=fr&fields[0]=title&populate[0]=author&populate[1]=category&' +
          'filters[$or][0][title][$containsi]=e&filters[$or][1][category][name][$eq]=Technology',
      );
      expect(res.status).to.equal(200);
      expect(res.body.data.length).to.be.greaterThan(0);
      for (const entry of res.body.data as Entry[]) {
        expect(Object.keys(entry.attributes)).to.have.members(['title', 'author', 'category']);
        expect(entry.id).to.be.greaterThan(40); // the fr localizations
      }
    });

    it('getMany: the ids as filters[id][$in] with pagination[pageSize] set to their count', async () => {
      const res = await get(
        '/api/articles?pagination[pageSize]=3&filters[id][$in][0]=7&filters[id][$in][1]=1&filters[id][$in][2]=3',
      );
      expect(ids(res.body).sort()).to.deep.equal([1, 3, 7]);
      expect(res.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 3, pageCount: 1, total: 3 });
    });

    it('getOne (qs with encode: false) and of a single type with an empty id: /api/homepage/', async () => {
      const one = await get('/api/articles/1?populate[0]=author&populate[1]=tags&fields[0]=title');
      expect(one.status).to.equal(200);
      expect(Object.keys(one.body.data.attributes)).to.have.members(['title', 'author', 'tags']);
      const single = await get('/api/homepage/?populate=*');
      expect(single.status).to.equal(200);
      expect(single.body.data.id).to.equal(1);
      expect(single.body.data.attributes).to.have.property('seo');
    });

    it('create, update, deleteOne with the JWT from AuthHelper.login, and the 404 of a second delete', async () => {
      const auth = bearer(jwt);
      const created = await request(service.app)
        .post('/api/categories')
        .set(auth)
        .send({ data: { name: 'Refined' } });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id = created.body.data.id as number;
      const updated = await request(service.app)
        .put(`/api/categories/${id}`)
        .set(auth)
        .send({ data: { name: 'Refined again' } });
      expect(updated.body.data.attributes.name).to.equal('Refined again');
      expect((await request(service.app).delete(`/api/categories/${id}`).set(auth)).status).to.equal(200);
      const again = await request(service.app).delete(`/api/categories/${id}`).set(auth);
      expect(again.status).to.equal(404);
      expect(again.body.error).to.deep.include({ name: 'NotFoundError', message: 'Not Found' });
    });

    it('a create refine maps to form errors: details.errors with each path', async () => {
      const res = await request(service.app)
        .post('/api/categories')
        .set(bearer(jwt))
        .send({ data: { sortOrder: 2 } });
      expect(res.status).to.equal(400);
      expect(res.body.error.details.errors).to.deep.equal([
        { path: ['name'], message: 'name must be defined.', name: 'ValidationError' },
      ]);
    });

    it('AuthHelper: login by e-mail, then me with meta.populate: role stays hidden from a role that cannot read roles', async () => {
      const token = await login(service.app, 'alice@users.example.com', 'Password123!');
      const me = await get('/api/users/me?populate[0]=role').set(bearer(token));
      expect(me.status).to.equal(200);
      expect(me.body).to.include({ username: 'alice', email: 'alice@users.example.com', confirmed: true });
      expect(me.body).to.not.have.property('role');
      const fields = await get('/api/users/me?fields[0]=username&fields[1]=email').set(bearer(token));
      expect(fields.body).to.deep.equal({ id: me.body.id, username: 'alice', email: 'alice@users.example.com' });
    });
  });

  describe('ra-strapi-v4-rest 1.1.1 (react-admin)', () => {
    it('getList: populate=* first, sort with react-admin upper-case order, page/pageSize', async () => {
      const res = await get(
        '/api/articles?populate=*&sort[0]=views:DESC&pagination[page]=1&pagination[pageSize]=3&filters[kind][$eq]=news',
      );
      expect(res.status).to.equal(200);
      const views = res.body.data.map((entry: Entry) => BigInt(entry.attributes.views as string));
      expect(views).to.deep.equal([...views].sort((a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0)));
      expect(res.body.data[0].attributes).to.have.property('author');
    });

    it('getManyReference: the target "author.id" as filters[author][id][$eq]', async () => {
      const res = await get(
        '/api/articles?populate=*&sort[0]=id:ASC&pagination[page]=1&pagination[pageSize]=50&filters[author][id][$eq]=1',
      );
      expect(res.status).to.equal(200);
      expect(res.body.data.length).to.be.greaterThan(0);
      for (const entry of res.body.data as Entry[])
        expect((entry.attributes.author as { data: { id: number } }).data.id).to.equal(1);
    });

    it('delete sends Content-Type: text/plain with no body', async () => {
      const created = await request(service.app)
        .post('/api/tags')
        .set(bearer(jwt))
        .send({ data: { name: 'react-admin' } });
      const res = await request(service.app)
        .delete(`/api/tags/${created.body.data.id}`)
        .set(bearer(jwt))
        .set('Content-Type', 'text/plain');
      expect(res.status).to.equal(200);
      expect(res.body.data.attributes.name).to.equal('react-admin');
    });

    it('create without a file is still multipart: data as a JSON field, empty strings sent as null', async () => {
      const res = await request(service.app)
        .post('/api/tags')
        .set(bearer(jwt))
        .field('data', JSON.stringify({ name: 'multipart tag', weight: null }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.attributes).to.include({ name: 'multipart tag', weight: null });
    });
  });

  describe('gatsby-source-strapi 3.3.3', () => {
    it("reads the content-type builder's schemas with a full-access token; a read-only one is refused, as Strapi's", async () => {
      const refused = await get('/api/content-type-builder/content-types').set(bearer(readOnly));
      expect(refused.status).to.equal(403);
      const types = await get('/api/content-type-builder/content-types').set(bearer(fullAccess));
      const components = await get('/api/content-type-builder/components').set(bearer(fullAccess));
      expect(types.status).to.equal(200);
      const uids = (types.body.data as { uid: string }[]).map((entry) => entry.uid);
      expect(uids).to.include.members(['api::article.article', 'api::homepage.homepage']);
      expect((components.body.data as { uid: string }[]).map((entry) => entry.uid)).to.include('shared.seo');
    });

    it('fetchEntities: pagination[pageSize]=250 is capped at maxLimit, so its page loop reads pageCount pages', async () => {
      const res = await get('/api/articles?pagination[pageSize]=250&pagination[page]=1&populate=%2A').set(
        bearer(readOnly),
      );
      expect(res.body.meta.pagination).to.deep.equal({ page: 1, pageSize: 100, pageCount: 1, total: 34 });
      expect(res.body.data).to.have.length(34);
    });

    it('fetchEntities with i18n locale "all": every locale in one list', async () => {
      const res = await get('/api/articles?pagination[pageSize]=250&pagination[page]=1&populate=%2A&locale=all').set(
        bearer(readOnly),
      );
      const locales = new Set((res.body.data as Entry[]).map((entry) => entry.attributes.locale));
      expect([...locales].sort()).to.deep.equal(['en', 'fr']);
      expect(res.body.meta.pagination.total).to.equal(40);
    });

    it('the delta fetch of a later build: filters[updatedAt][$gt] with an ISO date', async () => {
      const past = '2000-01-01T00%3A00%3A00.000Z';
      const res = await get(
        `/api/articles?pagination[pageSize]=250&pagination[page]=1&populate=%2A&filters[updatedAt][$gt]=${past}`,
      ).set(bearer(readOnly));
      expect(res.body.meta.pagination.total).to.equal(34);
      const future = await get(
        '/api/articles?pagination[pageSize]=250&filters[updatedAt][$gt]=2999-01-01T00%3A00%3A00.000Z',
      );
      expect(future.body.meta.pagination.total).to.equal(0);
    });
  });

  describe('@nuxtjs/strapi 1.12 and the corporate starter fetchAPI', () => {
    it('GET with Content-Type: application/json and no body (the starter sets it on every call)', async () => {
      const res = await get('/api/homepage?populate=*').set('Content-Type', 'application/json').set(bearer(readOnly));
      expect(res.status).to.equal(200);
      expect(res.body.data.attributes.title).to.be.a('string');
    });

    it('populate of a dynamic zone by attribute names of its components (and __component): each block its own', async () => {
      const res = await get(
        '/api/articles?filters[slug]=getting-started-with-strapi&populate[category][fields][0]=name&' +
          'populate[blocks][populate][__component]=*&populate[blocks][populate][text]=*&populate[blocks][populate][url]=*&' +
          'populate[blocks][populate][body]=*&populate[blocks][populate][title]=*&populate[blocks][populate][author]=*',
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [article] = res.body.data as Entry[];
      expect(article?.attributes.category).to.deep.equal({ data: { id: 1, attributes: { name: 'Technology' } } });
      const blocks = article?.attributes.blocks as { __component: string }[];
      expect(blocks.length).to.be.greaterThan(0);
      for (const block of blocks) expect(block.__component).to.match(/^blocks\./);
    });

    it('sort as an object and offset pagination (its blog list "load more")', async () => {
      const first = await get(
        '/api/articles?sort[createdAt]=desc&fields[0]=title&pagination[start]=0&pagination[limit]=3',
      );
      const next = await get(
        '/api/articles?sort[createdAt]=desc&fields[0]=title&pagination[start]=3&pagination[limit]=3',
      );
      expect(first.body.meta.pagination).to.deep.equal({ start: 0, limit: 3, total: 34 });
      expect(next.body.meta.pagination).to.deep.equal({ start: 3, limit: 3, total: 34 });
      expect(ids(first.body)).to.not.have.members(ids(next.body));
    });

    it('dotted populate paths through components; a path naming no attribute is skipped, as Strapi skips it', async () => {
      const res = await get(
        '/api/articles/1?populate[0]=seo.metaSocial&populate[1]=seo.shareImage&populate[2]=author&fields[0]=title',
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const seo = res.body.data.attributes.seo as { metaSocial: unknown[] };
      expect(seo.metaSocial).to.be.an('array');
      expect(res.body.data.attributes.author.data.id).to.equal(1);
    });
  });
});

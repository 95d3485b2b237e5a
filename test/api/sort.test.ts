import { expect } from 'chai';
import request from 'supertest';
import { FILTER_SORT_CASES } from '../fixtures/filter-sort-cases.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `sort` over HTTP on the demo seed. */
describe('REST sort', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = async (path: string): Promise<number[]> => {
    const res = await get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body.data as { id: number }[]).map((entry) => entry.id);
  };

  describe('recorded Strapi answers', () => {
    for (const [id, name, plural, query, expected] of FILTER_SORT_CASES) {
      if (!query.includes('sort')) continue;
      it(`case ${id}: ${name}`, async () => {
        const path = `/api/${plural}?${query}`;
        if (Array.isArray(expected)) {
          expect(await ids(path)).to.deep.equal(expected);
        } else {
          const res = await get(path);
          expect(res.status).to.equal(400);
          expect(res.body.data).to.equal(null);
          expect(res.body.error).to.include({ status: 400 });
        }
      });
    }
  });

  describe('forms', () => {
    it('comma list, array, object form and case-insensitive directions agree', async () => {
      const expected = await ids('/api/categories?sort[0]=color:desc&sort[1]=name:asc');
      expect(await ids('/api/categories?sort=color:desc,name:asc')).to.deep.equal(expected);
      expect(await ids('/api/categories?sort=color:DESC,name')).to.deep.equal(expected);
      expect(await ids('/api/categories?sort[color]=desc&sort[name]=asc')).to.deep.equal(expected);
    });
    it('strings in code-point order, nulls first ascending and last descending', async () => {
      expect(await ids('/api/authors?sort=name')).to.deep.equal([1, 3, 4, 6, 7, 8, 2, 5]);
      expect(await ids('/api/categories?sort=color:asc')).to.deep.equal([4, 5, 1, 3, 6, 2]);
      expect(await ids('/api/categories?sort=color:desc')).to.deep.equal([2, 3, 6, 1, 5, 4]);
    });
    it('by id and timestamps; ties in storage order', async () => {
      expect(await ids('/api/categories?sort=id:desc')).to.deep.equal([6, 5, 4, 3, 2, 1]);
      expect(await ids('/api/categories?sort=createdAt')).to.have.length(6);
    });
    it('through relations: to-one, nested, inverse side', async () => {
      expect(
        await ids('/api/articles?sort[0]=author.profile.handle:desc&sort[1]=id&pagination[pageSize]=5'),
      ).to.deep.equal([7, 14, 21, 28, 35]);
      expect(await ids('/api/author-profiles?sort[0]=author.name&sort[1]=id')).to.deep.equal([8, 1, 3, 4, 6, 7, 2, 5]);
      expect(await ids('/api/articles?sort[0]=author.profile.handle:asc&sort[1]=id')).to.deep.equal(
        await ids('/api/articles?sort[0]=author.profile.handle&sort[1]=id:asc'),
      );
    });
    it('by the related value, nulls first ascending and last descending', async () => {
      const path = '/api/articles?populate[category][fields][0]=name&pagination[pageSize]=100';
      const res = await get(`${path}&sort[0]=category.name:asc&sort[1]=id:asc`);
      const names = (
        res.body.data as { attributes: { category: { data: { attributes: { name: string } } | null } } }[]
      ).map((entry) => entry.attributes.category.data?.attributes.name ?? null);
      expect(names.slice(0, 2)).to.deep.equal([null, null]);
      const sorted = [...names].sort((a, b) => (a === null ? -1 : b === null ? 1 : a < b ? -1 : a > b ? 1 : 0));
      expect(names).to.deep.equal(sorted);
      const asc = await ids(`${path}&sort[0]=category.name:asc&sort[1]=id:asc`);
      const desc = await ids(`${path}&sort[0]=category.name:desc&sort[1]=id:asc`);
      expect(desc.slice(-2)).to.deep.equal(asc.slice(0, 2));
    });
    it('sort inside populate uses the related type', async () => {
      const res = await get('/api/articles/1?populate[tags][sort]=name:desc&populate[tags][fields][0]=name');
      expect(res.status).to.equal(200);
      expect(res.body.data.attributes.tags.data.map((tag: { id: number }) => tag.id)).to.deep.equal([2, 6]);
    });
  });

  it('a json attribute sorts on its JSON text (as Strapi stores it), nulls first ascending', async () => {
    const all = await get('/api/articles?fields[0]=metadata&pagination[pageSize]=100');
    const entries = all.body.data as { id: number; attributes: { metadata: unknown } }[];
    const text = (value: unknown) => (value === null ? '' : `\u0001${JSON.stringify(value)}`);
    const ascending = [...entries]
      .sort((a, b) => {
        const [x, y] = [text(a.attributes.metadata), text(b.attributes.metadata)];
        return x < y ? -1 : x > y ? 1 : a.id - b.id;
      })
      .map((entry) => entry.id);
    expect(new Set(entries.map((entry) => JSON.stringify(entry.attributes.metadata))).size).to.be.greaterThan(3);
    expect(await ids('/api/articles?sort=metadata,id&pagination[pageSize]=100')).to.deep.equal(ascending);
    const descending = await ids('/api/articles?sort[0]=metadata:desc&sort[1]=id:desc&pagination[pageSize]=100');
    expect(descending).to.deep.equal([...ascending].reverse());
  });

  it('empty items sort on nothing, text after a second colon is ignored (Strapi 4.26)', async () => {
    const titles = async (path: string) =>
      ((await get(path)).body.data as { attributes: { title: string } }[]).map((e) => e.attributes.title);
    const byTitleDesc = await titles('/api/articles?sort=title:desc&fields[0]=title&pagination[pageSize]=3');
    expect(byTitleDesc).to.deep.equal(['Écrire du bon code', 'ÉTÉ à Paris', 'the lowercase title']);
    for (const path of [
      '/api/articles?sort[0]=&sort[1]=title:desc',
      '/api/articles?sort=,title:desc,',
      '/api/articles?sort=title:desc:x',
      '/api/articles?sort=%20title:desc%20',
    ])
      expect(await titles(`${path}&fields[0]=title&pagination[pageSize]=3`), path).to.deep.equal(byTitleDesc);
    const unsorted = await titles('/api/articles?fields[0]=title&pagination[pageSize]=3');
    expect(await titles('/api/articles?sort[0]=&fields[0]=title&pagination[pageSize]=3')).to.deep.equal(unsorted);
  });

  it('through a to-many relation an entry comes once per related entry, as Strapi 4.26’s join answers', async () => {
    const page = async (path: string) => {
      const body = (await get(`${path}&fields[0]=id`)).body;
      return { ids: (body.data as { id: number }[]).map((e) => e.id), pagination: body.meta.pagination };
    };
    expect(await page('/api/articles?sort=tags.name:desc,id&pagination[pageSize]=12')).to.deep.equal({
      ids: [1, 9, 20, 34, 6, 8, 17, 28, 30, 4, 14, 25],
      pagination: { page: 1, pageSize: 12, pageCount: 3, total: 34 },
    });
    // authors without articles come once, first (NULL); the total counts authors
    expect(await page('/api/authors?sort=articles.title:asc,id')).to.deep.equal({
      ids: [8, 3, 3, 4, 1, 4, 2, 3, 5, 7, 3, 5, 1, 6, 1, 2, 3, 2, 5, 5, 4, 7, 6, 1, 1],
      pagination: { page: 1, pageSize: 25, pageCount: 1, total: 8 },
    });
    expect(await page('/api/articles?sort=tags.name,id&pagination[page]=2&pagination[pageSize]=5')).to.deep.equal({
      ids: [27, 31, 35, 39, 6],
      pagination: { page: 2, pageSize: 5, pageCount: 7, total: 34 },
    });
  });

  it('through a repeatable component an entry comes once per component, as Strapi 4.26’s join answers', async () => {
    const page = async (path: string) => {
      const body = (await get(`${path}&fields[0]=id`)).body;
      return { ids: (body.data as { id: number }[]).map((e) => e.id), pagination: body.meta.pagination };
    };
    expect(await page('/api/articles?sort=links.label:desc,id&pagination[pageSize]=12')).to.deep.equal({
      ids: [7, 40, 4, 37, 34, 31, 28, 25, 22, 16, 13, 10],
      pagination: { page: 1, pageSize: 12, pageCount: 3, total: 34 },
    });
    // nested in a single component; the last page of the total holds rows the total does not count
    expect(
      await page('/api/articles?sort=seo.metaSocial.network,id&pagination[page]=6&pagination[pageSize]=6'),
    ).to.deep.equal({ ids: [13, 25, 31, 37, 1, 7], pagination: { page: 6, pageSize: 6, pageCount: 6, total: 34 } });
    // entries without a component come once, first (NULL)
    expect(await page('/api/articles?sort=links.id&pagination[pageSize]=6&filters[id][$lte]=10')).to.deep.equal({
      ids: [2, 8, 1, 1, 3, 4],
      pagination: { page: 1, pageSize: 6, pageCount: 2, total: 9 },
    });
  });

  it('a sort list mixing strings with objects (or null) is Strapi’s "Invalid parameter 0"', async () => {
    for (const path of [
      '/api/articles?sort[0]=title&sort[1][id]=desc',
      '/api/articles?sort[0][title]=asc&sort[1]=id',
    ]) {
      const res = await get(path);
      expect([res.status, res.body.error?.message], path).to.deep.equal([400, 'Invalid parameter 0']);
    }
    const objects = await get('/api/articles?sort[0][title]=asc&sort[1][id]=desc&fields[0]=id&pagination[pageSize]=3');
    expect(objects.status).to.equal(200);
  });

  describe('rejected input', () => {
    for (const [path, message] of [
      ['/api/articles?sort=title:sideways', undefined],
      ['/api/articles?sort=nope', 'Invalid parameter nope'],
      ['/api/articles?sort=internalNotes', 'Invalid parameter internalNotes'],
      ['/api/authors?sort=secretCode:asc', 'Invalid parameter secretCode'],
      ['/api/articles?sort=author', 'Invalid parameter author'],
      // the object form: Strapi reads the direction as an attribute of the relation (or component)
      ['/api/articles?sort[author]=asc', 'Invalid parameter asc'],
      ['/api/articles?sort[seo]=desc', 'Invalid parameter desc'],
      ['/api/articles?sort=:desc', undefined],
      // the field keeps the spaces inside the item
      ['/api/articles?sort=title%20:desc', 'Invalid parameter title '],
    ] as const) {
      it(`${path} → 400`, async () => {
        const res = await get(path);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
        if (message) expect(res.body.error.message).to.equal(message);
      });
    }
  });
});

import { expect } from 'chai';
import request from 'supertest';
import { FILTER_SORT_CASES } from '../fixtures/filter-sort-cases.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** `filters` over HTTP on the demo seed. */
describe('REST filters', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  const get = (path: string) => request(service.app).get(path);
  const ids = (body: { data: { id: number }[] }) => body.data.map((entry) => entry.id);
  const expectValidationError = async (path: string, message?: string) => {
    const res = await get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(400);
    expect(res.body.data).to.equal(null);
    expect(res.body.error).to.include({ status: 400, name: 'ValidationError' });
    expect(res.body.error).to.have.property('details');
    if (message) expect(res.body.error.message).to.equal(message);
  };

  it('text operators on numbers and booleans match their SQLite text, as Strapi 4.26 on SQLite answers', async () => {
    for (const [path, expected] of [
      ['/api/articles?filters[readingTime][$startsWith]=1', [1, 4, 6, 11, 13, 16, 18, 21, 23, 28, 29, 35]],
      ['/api/articles?filters[id][$endsWith]=0', [10, 20, 30, 40]],
      ['/api/articles?filters[views][$contains]=123', [1, 10]],
      ['/api/articles?filters[price][$contains]=13', [1]],
      ['/api/events?filters[ticketPrice][$startsWith]=1', [3]],
      ['/api/authors?filters[rank][$endsWith]=3', [1]],
      // a float column's whole values keep a fraction (1.0), booleans are 1 / 0
      ['/api/tags?filters[weight][$contains]=.&filters[weight][$lt]=1.5', [3, 6, 7, 8]],
      ['/api/articles?filters[featured][$contains]=t', []],
    ] as const) {
      const res = await get(`${path}&pagination[pageSize]=100`);
      expect([res.status, ids(res.body)], path).to.deep.equal([200, expected]);
    }
    const featured = await get('/api/articles?filters[featured]=true&pagination[pageSize]=100');
    const featuredText = await get('/api/articles?filters[featured][$contains]=1&pagination[pageSize]=100');
    expect(ids(featuredText.body)).to.deep.equal(ids(featured.body));
    // NULL matches nothing, negated or not
    const notContains = await get('/api/articles?filters[readingTime][$notContains]=1&pagination[pageSize]=100');
    expect(ids(notContains.body)).to.deep.equal([2, 3, 7, 9, 14, 15, 17, 22, 24, 25, 27, 31, 32, 34, 36, 39]);
  });

  it('$eqi never matches a number (but a float), boolean or date-time column ($nei: every non-null value), as Strapi 4.26 answers', async () => {
    const all = await get('/api/articles?pagination[pageSize]=100');
    const withReadingTime = await get('/api/articles?filters[readingTime][$notNull]=true&pagination[pageSize]=100');
    for (const field of ['id', 'views', 'featured', 'readingTime', 'createdAt', 'price']) {
      const eqi = await get(`/api/articles?filters[${field}][$eqi]=1&pagination[pageSize]=100`);
      expect([eqi.status, ids(eqi.body)], field).to.deep.equal([200, []]);
    }
    const nei = await get('/api/articles?filters[readingTime][$nei]=5&pagination[pageSize]=100');
    expect(ids(nei.body)).to.deep.equal(ids(withReadingTime.body));
    const neiId = await get('/api/articles?filters[id][$nei]=1&pagination[pageSize]=100');
    expect(ids(neiId.body)).to.deep.equal(ids(all.body));
  });

  it("the case-insensitive operators read a number, boolean or date-time column as LOWER()'s REAL text (Strapi 4.26 as recorded)", async () => {
    const all = await get('/api/articles?pagination[pageSize]=100');
    const withReadingTime = await get('/api/articles?filters[readingTime][$notNull]=true&pagination[pageSize]=100');
    const featured = await get('/api/articles?filters[featured]=true&pagination[pageSize]=100');
    const notFeatured = await get('/api/articles?filters[featured]=false&pagination[pageSize]=100');
    const scheduled = await get('/api/articles?filters[scheduledAt][$notNull]=true&pagination[pageSize]=100');
    expect(scheduled.body.meta.pagination.total).to.equal(27);
    expect(ids(featured.body)).to.deep.equal([1, 15, 20, 25, 35, 40]);
    for (const [path, expected] of [
      ['/api/articles?filters[readingTime][$eqi]=4.0', [7, 36]],
      ['/api/articles?filters[readingTime][$eqi]=4', []],
      ['/api/articles?filters[id][$eqi]=1.0', [1]],
      ['/api/articles?filters[views][$eqi]=3000123457.0', [1]],
      ['/api/articles?filters[featured][$eqi]=1.0', ids(featured.body)],
      ['/api/articles?filters[featured][$eqi]=0.0', ids(notFeatured.body)],
      ['/api/articles?filters[readingTime][$nei]=4.0', ids(withReadingTime.body).filter((id) => ![7, 36].includes(id))],
      // every whole number's text ends with .0: `0` and `.` are in each non-null value
      ['/api/articles?filters[readingTime][$endsWithi]=0', ids(withReadingTime.body)],
      ['/api/articles?filters[readingTime][$containsi]=.', ids(withReadingTime.body)],
      ['/api/articles?filters[id][$containsi]=.0', ids(all.body)],
      ['/api/articles?filters[featured][$containsi]=0', ids(all.body)],
      ['/api/articles?filters[featured][$notContainsi]=0', []],
      ['/api/articles?filters[scheduledAt][$containsi]=.0', ids(scheduled.body)],
      // the case-sensitive forms read the column itself
      ['/api/articles?filters[views][$endsWith]=7', [1, 11, 21, 31]],
      ['/api/articles?filters[views][$endsWithi]=7', []],
      ['/api/events?filters[online][$eqi]=1.0', [2, 10]],
      ['/api/events?filters[capacity][$containsi]=0', [1, 2, 3, 6, 7, 9]],
    ] as const) {
      const res = await get(`${path}&pagination[pageSize]=100`);
      expect([res.status, ids(res.body)], path).to.deep.equal([200, expected]);
    }
  });

  it('$eqi on a float compares its SQLite text with the value as written (Strapi 4.26)', async () => {
    for (const [value, expected] of [
      ['2.4', [2]],
      ['2.0', [10]],
      ['2', []],
    ] as const) {
      const eqi = await get(`/api/articles?filters[rating][$eqi]=${value}&pagination[pageSize]=100`);
      expect([eqi.status, ids(eqi.body)], value).to.deep.equal([200, expected]);
    }
    const nei = await get('/api/articles?filters[rating][$nei]=2.4&pagination[pageSize]=100');
    const rated = await get('/api/articles?filters[rating][$notNull]=true&pagination[pageSize]=100');
    expect(nei.body.meta.pagination.total).to.equal(28);
    expect(ids(nei.body)).to.deep.equal(ids(rated.body).filter((id: number) => id !== 2));
  });

  it('a decimal column is REAL in Strapi 4.26 on SQLite: whole values keep a fraction, $eqi compares the text', async () => {
    const priced = await get('/api/articles?filters[price][$notNull]=true&fields[0]=price&pagination[pageSize]=100');
    const prices = (priced.body.data as { id: number; attributes: { price: number } }[]).map((entry) => ({
      id: entry.id,
      price: entry.attributes.price,
    }));
    const fractional = prices.find(({ price }) => !Number.isInteger(price));
    expect(fractional, 'a seeded price with cents').to.not.equal(undefined);
    const same = prices.filter(({ price }) => price === fractional!.price).map(({ id }) => id);
    const eqi = await get(`/api/articles?filters[price][$eqi]=${fractional!.price}&pagination[pageSize]=100`);
    expect([eqi.status, ids(eqi.body)]).to.deep.equal([200, same]);
    const nei = await get(`/api/articles?filters[price][$nei]=${fractional!.price}&pagination[pageSize]=100`);
    expect(ids(nei.body)).to.deep.equal(prices.map(({ id }) => id).filter((id) => !same.includes(id)));
    // a whole value reads as 0.0: `$eqi=0.0` and `$endsWith=.0` match it, `$eqi=0` does not
    const events = await get(
      '/api/events?filters[ticketPrice][$notNull]=true&publicationState=preview&pagination[pageSize]=100',
    );
    const whole = (events.body.data as { id: number; attributes: { ticketPrice: number } }[])
      .filter((entry) => Number.isInteger(entry.attributes.ticketPrice))
      .map((entry) => ({ id: entry.id, text: `${entry.attributes.ticketPrice}.0` }));
    expect(whole.length, 'a seeded whole ticket price').to.be.greaterThan(0);
    const first = whole[0]!;
    for (const [query, expected] of [
      [`filters[ticketPrice][$eqi]=${first.text}`, whole.filter((w) => w.text === first.text).map((w) => w.id)],
      [`filters[ticketPrice][$eqi]=${first.text.slice(0, -2)}`, []],
      ['filters[ticketPrice][$endsWith]=.0', whole.map((w) => w.id)],
    ] as const) {
      const res = await get(`/api/events?${query}&publicationState=preview&pagination[pageSize]=100`);
      expect([res.status, ids(res.body)], query).to.deep.equal([200, expected]);
    }
  });

  it('text operators on a date-time match its SQLite text, milliseconds since the epoch', async () => {
    const all = await get('/api/articles?pagination[pageSize]=100');
    const created = new Date(all.body.data[0].attributes.createdAt).getTime();
    for (const [path, expected] of [
      ['filters[createdAt][$contains]=-', []],
      ['filters[createdAt][$startsWith]=2024', []],
      [`filters[createdAt][$startsWith]=${String(created).slice(0, 2)}`, ids(all.body)],
      ['filters[createdAt][$notContains]=-', ids(all.body)],
    ] as const) {
      const res = await get(`/api/articles?${path}&pagination[pageSize]=100`);
      expect([res.status, ids(res.body)], path).to.deep.equal([200, expected]);
    }
  });

  describe('recorded Strapi answers', () => {
    for (const [id, name, plural, query, expected] of FILTER_SORT_CASES) {
      if (!query.includes('filters')) continue;
      it(`case ${id}: ${name}`, async () => {
        const path = `/api/${plural}?${query}`;
        if (Array.isArray(expected)) {
          const res = await get(path);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(ids(res.body)).to.deep.equal(expected);
          expect(res.body.meta.pagination.total).to.equal(expected.length);
        } else {
          await expectValidationError(path, expected.message === '<any-string>' ? undefined : expected.message);
        }
      });
    }
  });

  describe('operators and forms', () => {
    it('$ne and $notIn leave out NULLs (SQL semantics)', async () => {
      const res = await get('/api/articles?filters[readingTime][$ne]=4&pagination[pageSize]=100');
      for (const id of [7, 10, 20, 30, 36, 40]) expect(ids(res.body)).to.not.include(id);
      expect(res.body.meta.pagination.total).to.equal(28);
    });
    it("$in and $notIn with an empty value compare with the empty text (Strapi 4.26: IN (''))", async () => {
      const total = async (query: string) =>
        (await get(`/api/articles?${query}&pagination[pageSize]=1`)).body.meta.pagination.total as number;
      const all = await total('');
      for (const query of [
        'filters[id][$in]=',
        'filters[id][$in][0]=',
        'filters[category][id][$in]=',
        'filters[title][$in]=',
      ])
        expect(await total(query), query).to.equal(0);
      for (const query of ['filters[id][$notIn]=', 'filters[title][$notIn]='])
        expect(await total(query), query).to.equal(all);
      // through a relation the joined NULL of an entry without a category is no match
      expect(await total('filters[category][id][$notIn]=')).to.equal(
        await total('filters[category][id][$notNull]=true'),
      );
    });
    it('$or/$and as an object (qs past 100 items, named keys) are refused on their first key, as Strapi 4.26 does', async () => {
      const listed = await get('/api/articles?filters[$or][0][id]=1&filters[$or][1][id]=2');
      expect(ids(listed.body)).to.deep.equal([1, 2]);
      for (const [query, key] of [
        ['filters[$or][0][id]=1&filters[$or][150][id]=2', '0'],
        ['filters[$and][0][id]=1&filters[$and][150][title][$ne]=x', '0'],
        ['filters[$or][a][id]=1&filters[$or][b][id]=2', 'a'],
        ['filters[$or][a][id]=1&filters[$or][0][id]=2', '0'],
        ['filters[0][id]=1&filters[150][id]=2', '0'],
        ['filters[id][$in][0]=1&filters[id][$in][150]=2', '0'],
        ['filters[tags][0]=1&filters[tags][150]=2', '0'],
        ['filters[id][0]=1&filters[id][150]=2', '0'],
        ['filters[category][id][foo]=1', 'foo'],
        // Strapi drops these and answers everything (docs/strapi-deviations.md)
        ['filters[title][$in][0]=a&filters[title][$in][150]=b', '0'],
      ])
        await expectValidationError(`/api/articles?${query}`, `Invalid parameter ${key}`);
      // attributes alone in the object: Strapi's query builder fails (a 500)
      await expectValidationError('/api/articles?filters[$or][title]=x', 'Invalid parameter $or: expected an array');
    });
    it('$between, $null=false, $nei, $startsWithi, $endsWith', async () => {
      expect(
        ids((await get('/api/articles?filters[readingTime][$between][0]=5&filters[readingTime][$between][1]=7')).body),
      ).to.deep.equal([2, 14, 31]);
      expect(
        (await get('/api/articles?filters[summary][$null]=false&pagination[pageSize]=100')).body.meta.pagination.total,
      ).to.equal(29);
      expect(
        (await get('/api/articles?filters[title][$nei]=SUSHI%20SECRETS&pagination[pageSize]=100')).body.meta.pagination
          .total,
      ).to.equal(33);
      expect(ids((await get('/api/articles?filters[title][$startsWithi]=why')).body)).to.deep.equal([4, 17]);
      expect(ids((await get('/api/articles?filters[title][$endsWith]=Secrets')).body)).to.deep.equal([30]);
    });
    it('% and _ match literally', async () => {
      expect(ids((await get('/api/articles?filters[title][$contains]=%25')).body)).to.deep.equal([3, 21]);
      expect(ids((await get('/api/articles?filters[title][$contains]=_')).body)).to.deep.equal([]);
    });
    it('percent-encoded brackets', async () => {
      expect(ids((await get('/api/articles?filters%5Bid%5D%5B%24eq%5D=3')).body)).to.deep.equal([3]);
    });
    it('$not at the top level and nested $or/$and', async () => {
      const res = await get(
        '/api/articles?filters[$not][$or][0][kind]=news&filters[$not][$or][1][kind]=review&pagination[pageSize]=100',
      );
      expect(
        res.body.data.every((entry: { id: number }) => ![4, 8, 16, 24, 32, 36, 40, 2, 6, 10].includes(entry.id)),
      ).to.equal(true);
      expect(res.body.meta.pagination.total).to.equal(17);
    });
    it('deep filters: nested relations, inverse sides, self relations, components', async () => {
      expect(ids((await get('/api/articles?filters[author][profile][handle][$eq]=grace_h')).body)).to.deep.equal([
        7, 14, 21, 28, 35,
      ]);
      expect(ids((await get('/api/authors?filters[articles][title][$contains]=Sushi')).body)).to.deep.equal([2]);
      expect(ids((await get('/api/authors?filters[articles][id][$null]=true')).body)).to.deep.equal([8]);
      expect(ids((await get('/api/tags?filters[relatedTags][relatedTags][name]=JavaScript')).body)).to.deep.equal([
        4, 9, 11,
      ]);
      expect(ids((await get('/api/articles?filters[links][label]=Link%202%20of%201')).body)).to.deep.equal([1]);
      expect(
        ids(
          (
            await get(
              '/api/articles?filters[$or][0][featured]=true&filters[$or][1][category][name]=Travel&pagination[pageSize]=100',
            )
          ).body,
        ),
      ).to.deep.equal([1, 3, 8, 15, 18, 20, 23, 25, 28, 35, 40]);
    });
    it('biginteger, datetime and boolean values are cast', async () => {
      expect(ids((await get('/api/events?filters[budget][$eq]=1000000007')).body)).to.deep.equal([1]);
      expect(ids((await get('/api/articles?filters[views][$gte]=3000123457&filters[id][$lte]=1')).body)).to.deep.equal([
        1,
      ]);
      expect(
        (await get('/api/articles?filters[featured]=t&pagination[pageSize]=100')).body.meta.pagination.total,
      ).to.equal(6);
    });
    it('a biginteger compares with a non-integral number by value, as Strapi 4.26 answers; text is a 400', async () => {
      expect(ids((await get('/api/articles?filters[views][$eq]=3000123457.0')).body)).to.deep.equal([1]);
      expect(ids((await get('/api/events?filters[budget][$eq]=1000000007.00')).body)).to.deep.equal([1]);
      expect(ids((await get('/api/articles?filters[views][$eq]=3000123457.5')).body)).to.deep.equal([]);
      expect(
        ids((await get('/api/articles?filters[views][$gte]=3000123456.5&filters[id][$lte]=1')).body),
      ).to.deep.equal([1]);
      expect(ids((await get('/api/articles?filters[views][$gt]=3000123457.5&filters[id][$lte]=1')).body)).to.deep.equal(
        [],
      );
      await expectValidationError(
        '/api/articles?filters[views][$eq]=abc',
        'Expected a valid integer for views, got abc',
      );
      await expectValidationError('/api/articles?filters[views][$in][0]=', 'Expected a valid integer for views, got ');
    });
    it('filters inside populate use the related type', async () => {
      const res = await get('/api/articles/1?populate[tags][filters][name][$eq]=Paris&populate[tags][fields][0]=name');
      expect(res.status).to.equal(200);
      expect(res.body.data.attributes.tags.data.map((tag: { id: number }) => tag.id)).to.deep.equal([6]);
    });
  });

  describe("Strapi 4.26's readings (answers checked against a real Strapi)", () => {
    const all = (path: string) => get(`${path}&fields[0]=title&pagination[pageSize]=100`);
    const idsOf = async (path: string) => {
      const res = await all(path);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return ids(res.body);
    };

    it('an operator given several values is the OR of the operator on each value', async () => {
      expect(await idsOf('/api/articles?filters[readingTime][$eq][0]=12&filters[readingTime][$eq][1]=5')).to.deep.equal(
        [16],
      );
      expect(
        await idsOf('/api/articles?filters[title][$contains][0]=Paris&filters[title][$contains][1]=Chef'),
      ).to.deep.equal([7, 23]);
      const gt = await idsOf('/api/articles?filters[readingTime][$gt][0]=12&filters[readingTime][$gt][1]=5');
      expect(gt).to.have.length(26);
      // <> 12 OR <> 5: every entry with a reading time
      expect(
        await idsOf('/api/articles?filters[readingTime][$ne][0]=12&filters[readingTime][$ne][1]=5'),
      ).to.have.length(30);
    });

    it('an id given as another number literal compares by value (SQLite reads it as a number); other text matches nothing', async () => {
      for (const value of ['1.0', '1e0', '1.', '%2B1'])
        expect(await idsOf(`/api/articles?filters[id][$eq]=${value}`), value).to.deep.equal([1]);
      expect(await idsOf('/api/articles?filters[id][$lt]=2.5')).to.deep.equal([1, 2]);
      expect(await idsOf('/api/articles?filters[id][$in][0]=2.00&filters[id][$in][1]=3e0')).to.deep.equal([2, 3]);
      expect(await idsOf('/api/articles?filters[author][id][$eq]=2.0')).to.deep.equal(
        await idsOf('/api/articles?filters[author][id][$eq]=2'),
      );
      expect(await idsOf('/api/articles?filters[id][$ne]=1.0')).to.not.include(1);
      expect(await idsOf('/api/articles?filters[id][$in]=1%2C2')).to.deep.equal([]);
      const graphql = await request(service.app)
        .post('/graphql')
        .send({ query: '{ articles(filters: { id: { eq: "1.0" } }) { data { id } } }' });
      expect(graphql.body).to.deep.equal({ data: { articles: { data: [{ id: '1' }] } } });
    });

    it('$null and $notNull read any value as a boolean (empty and f/false/0 are false)', async () => {
      const missingSummary = [7, 14, 21, 28, 35];
      expect(await idsOf('/api/articles?filters[summary][$null]=yes')).to.deep.equal(missingSummary);
      expect(await idsOf('/api/articles?filters[summary][$notNull]=0')).to.deep.equal(missingSummary);
      expect(await idsOf('/api/articles?filters[summary][$null][foo]=1')).to.deep.equal(missingSummary);
      expect(await idsOf('/api/articles?filters[summary][$null]=')).to.have.length(29);
      expect(await idsOf('/api/articles?filters[summary][$notNull][0]=0')).to.have.length(29);
    });

    it('json attributes: text operators and comparisons apply to the JSON text Strapi stores', async () => {
      const path = (operator: string) => `/api/articles?filters[metadata]${operator}`;
      expect(await idsOf(path('[$contains]=%22priority%22:1'))).to.deep.equal([6, 36]);
      expect(await idsOf(path('[$containsi]=RSS'))).to.deep.equal([6, 18, 24, 30, 36]);
      expect(await idsOf(path('[$containsi]=%C3%BCN%C3%8F'))).to.deep.equal([3, 9, 15, 21, 27, 39]);
      expect(await idsOf(path('[$contains]=null'))).to.deep.equal([2, 8, 14, 20, 32]);
      // NOT LIKE never matches a NULL value
      expect(await idsOf(path('[$notContains]=source'))).to.deep.equal([
        2, 3, 8, 9, 11, 14, 15, 17, 20, 21, 23, 27, 29, 32, 35, 39,
      ]);
      expect(await idsOf(path('[$notContainsi]=SOURCE'))).to.have.length(16);
      expect(await idsOf(path('[$startsWith]=%7B'))).to.have.length(18);
      // $eq compares the JSON text of the (string) value: only the JSON string "just a string"
      expect(await idsOf(path('[$eq]=just%20a%20string'))).to.deep.equal([11, 17, 23, 29, 35]);
      expect(await idsOf(path('[$eq]=%22just%20a%20string%22'))).to.deep.equal([]);
      expect(await idsOf(path('[$eqi]=%22JUST%20A%20STRING%22'))).to.deep.equal([11, 17, 23, 29, 35]);
      expect(await idsOf(path('[$contains]=100%25'))).to.deep.equal([3, 9, 15, 21, 27, 39]);
    });

    it('an operator on a component applies to its id: $null finds entries without it', async () => {
      expect(await idsOf('/api/articles?filters[links][$null]=true')).to.deep.equal([
        2, 8, 11, 14, 17, 20, 23, 29, 32, 35,
      ]);
      expect(await idsOf('/api/articles?filters[seo][$null]=true')).to.deep.equal([
        2, 4, 6, 8, 10, 14, 16, 18, 20, 22, 24, 28, 30, 32, 34, 36, 40,
      ]);
      expect(await idsOf('/api/articles?filters[links][$notNull]=true')).to.have.length(24);
    });

    it("a component's id filters as Strapi 4.26 answers (single, repeatable, nested, through a relation, in populate)", async () => {
      for (const [query, expected] of [
        ['filters[seo][id][$eq]=1', [1]],
        ['filters[seo][id]=2', [3]],
        ['filters[links][id][$eq]=3', [3]],
        ['filters[links][id][$in][0]=3&filters[links][id][$in][1]=4', [3, 4]],
        ['filters[seo][metaSocial][id][$eq]=1', [1]],
        ['filters[author][address][id][$eq]=1', [1, 8, 15, 29, 36]],
        ['filters[links][id][$null]=true', [2, 8, 11, 14, 17, 20, 23, 29, 32, 35]],
      ] as const)
        expect(await idsOf(`/api/articles?${query}`), query).to.deep.equal(expected);
      // a repeatable component's id: an element other than 3, so entries without links are out
      const notThree = await idsOf('/api/articles?filters[links][id][$ne]=3');
      expect(notThree).to.deep.equal(await idsOf('/api/articles?filters[$not][links][id][$eq]=3'));
      expect(notThree).to.not.include.members([2, 3]);
      const populated = await get(
        '/api/articles/3?fields[0]=id&populate[links][filters][id][$in][0]=3&populate[links][filters][id][$in][1]=5',
      );
      expect(populated.body.data.attributes.links.map((link: { id: number }) => link.id)).to.deep.equal([3]);
    });

    it('a relation or component object mixing attributes and operators, or with two operators, is a 400 (Strapi: 500)', async () => {
      await expectValidationError(
        '/api/articles?filters[author][$null]=false&filters[author][name]=x',
        'Operator and non-operator keys cannot be mixed in a relation where clause',
      );
      await expectValidationError(
        '/api/articles?filters[links][$null]=false&filters[links][label][$contains]=2',
        'Operator and non-operator keys cannot be mixed in a relation where clause',
      );
      await expectValidationError(
        '/api/articles?filters[author][$gt]=1&filters[author][$lt]=5',
        'Only one operator key is allowed in a relation where clause, but found: $gt,$lt',
      );
    });

    it("malformed dates answer Strapi's messages; a date-time value is read as its date", async () => {
      await expectValidationError('/api/articles?filters[publishDate][$eq]=abc', 'Invalid format, expected yyyy-MM-dd');
      await expectValidationError(
        '/api/articles?filters[publishDate][$eq]=2023',
        'Invalid format, expected yyyy-MM-dd',
      );
      await expectValidationError('/api/events?filters[day][$eq]=2024-3-6', 'Invalid format, expected yyyy-MM-dd');
      await expectValidationError('/api/articles?filters[publishDate][$eq]=2023-02-30', 'Invalid date');
      expect(await idsOf('/api/articles?filters[publishDate][$eq]=2023-01-08T10:00:00Z')).to.deep.equal([1]);
    });
  });

  describe('rejected input', () => {
    const rejected: [string, string?][] = [
      ['/api/articles?filters[nope][$eq]=1', 'Invalid parameter nope'],
      ['/api/articles?filters[title][$foo]=x', 'Invalid parameter $foo'],
      ['/api/articles?filters[author][name][$foo]=x', 'Invalid parameter $foo'],
      ['/api/articles?filters[internalNotes][$eq]=x', 'Invalid parameter internalNotes'],
      ['/api/articles?filters[author][secretCode]=x', 'Invalid parameter secretCode'],
      ['/api/articles?filters[blocks][id]=1', 'Invalid parameter blocks'],
      ['/api/articles?filters=abc'],
      ['/api/articles?filters[title][$eq][$gt]='],
      ['/api/articles?filters[readingTime][$gt]=ten'],
      ['/api/articles?filters[readingTime][$between]=5'],
      ['/api/articles?filters[publishDate]=tomorrow'],
      ['/api/articles?filters[scheduledAt][$lt]=soon'],
      ['/api/articles?filters[$or]=x'],
      ['/api/articles?populate[tags][filters][nope]=x'],
    ];
    for (const [path, message] of rejected) {
      it(`${decodeURIComponent(path)} → 400`, () => expectValidationError(path, message));
    }
  });
});

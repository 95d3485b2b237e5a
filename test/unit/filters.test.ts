import { expect } from 'chai';
import qs from 'qs';
import { AppError } from '../../src/errors/index.js';
import type { QueryAccess } from '../../src/query/access.js';
import { findIds, seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * Every operator, cast and deep-filter form, through `find` on the demo seed. Expected ids are
 * computed from the stored rows with SQL's semantics (what Strapi answers): a comparison with NULL
 * never matches.
 */
type Row = Record<string, unknown>;

describe('compileFilters: operators, casting, deep filters', () => {
  let service: TestService;
  /** collection name → its stored rows, in id order */
  const stored: Record<string, Row[]> = {};
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
    const db = service.context.connection.db!;
    for (const name of ['articles', 'authors', 'tags'])
      stored[name] = await db.collection<Row>(name).find().sort({ _id: 1 }).toArray();
  });
  after(() => service.close());

  const articles = () => (stored.articles ?? []).filter((row) => row.locale === 'en' && row.publishedAt != null);
  const byId = (collection: string, id: unknown): Row | undefined =>
    (stored[collection] ?? []).find((row) => row._id === id);

  const find = (query: string, plural = 'articles', access?: QueryAccess) =>
    findIds(service.context, plural, qs.parse(query, { depth: 20, arrayLimit: 100 }), access);
  const where = (predicate: (row: Row) => boolean) =>
    articles()
      .filter(predicate)
      .map((row) => Number(row._id));
  const title = (row: Row) => String(row.title);
  const rt = (row: Row) => row.readingTime as number | null | undefined;
  const rejected = async (query: string, plural = 'articles', access?: QueryAccess): Promise<AppError> => {
    try {
      await find(query, plural, access);
    } catch (error) {
      expect(error).to.be.instanceOf(AppError);
      return error as AppError;
    }
    throw new Error(`expected ${query} to be rejected`);
  };

  describe('comparison operators (NULL never matches a comparison)', () => {
    it('$eq, $ne', async () => {
      expect(await find('filters[readingTime][$eq]=4')).to.deep.equal(where((r) => rt(r) === 4));
      expect(await find('filters[readingTime][$ne]=4')).to.deep.equal(where((r) => rt(r) != null && rt(r) !== 4));
    });
    it('$lt, $lte, $gt, $gte', async () => {
      expect(await find('filters[readingTime][$lt]=6')).to.deep.equal(where((r) => rt(r) != null && Number(rt(r)) < 6));
      expect(await find('filters[readingTime][$lte]=6')).to.deep.equal(
        where((r) => rt(r) != null && Number(rt(r)) <= 6),
      );
      expect(await find('filters[readingTime][$gt]=20')).to.deep.equal(
        where((r) => rt(r) != null && Number(rt(r)) > 20),
      );
      expect(await find('filters[readingTime][$gte]=20')).to.deep.equal(
        where((r) => rt(r) != null && Number(rt(r)) >= 20),
      );
    });
    it('$in and $notIn, as arrays and single values; an indexed object is refused (Strapi drops it)', async () => {
      const newsOrReview = where((r) => r.kind === 'news' || r.kind === 'review');
      expect(await find('filters[kind][$in][0]=news&filters[kind][$in][1]=review')).to.deep.equal(newsOrReview);
      const indexed = findIds(service.context, 'articles', { filters: { kind: { $in: { 0: 'news', 1: 'review' } } } });
      expect(
        (await indexed.then(
          () => null,
          (error: unknown) => error,
        )) as AppError,
      ).to.include({
        status: 400,
        message: 'Invalid parameter 0',
      });
      expect(await find('filters[kind][$in]=news')).to.deep.equal(where((r) => r.kind === 'news'));
      expect(await find('filters[readingTime][$notIn][0]=4&filters[readingTime][$notIn][1]=6')).to.deep.equal(
        where((r) => rt(r) != null && rt(r) !== 4 && rt(r) !== 6),
      );
    });
    it('implicit $in for a list value', async () => {
      expect(await find('filters[id][0]=3&filters[id][1]=7')).to.deep.equal([3, 7]);
    });
    it('$between (inclusive) and its negation', async () => {
      expect(await find('filters[readingTime][$between][0]=5&filters[readingTime][$between][1]=10')).to.deep.equal(
        where((r) => rt(r) != null && Number(rt(r)) >= 5 && Number(rt(r)) <= 10),
      );
      expect(
        await find('filters[readingTime][$not][$between][0]=5&filters[readingTime][$not][$between][1]=10'),
      ).to.deep.equal(where((r) => rt(r) != null && (Number(rt(r)) < 5 || Number(rt(r)) > 10)));
    });
    it('several operators on one field are and-ed', async () => {
      expect(
        await find('filters[readingTime][$gte]=5&filters[readingTime][$lte]=9&filters[readingTime][$ne]=6'),
      ).to.deep.equal(where((r) => [5, 7, 8, 9].includes(Number(rt(r)))));
    });
    it('$null and $notNull, true and false; missing counts as null', async () => {
      const noSummary = where((r) => r.summary == null);
      const withSummary = where((r) => r.summary != null);
      expect(await find('filters[summary][$null]=true')).to.deep.equal(noSummary);
      expect(await find('filters[summary][$null]=false')).to.deep.equal(withSummary);
      expect(await find('filters[summary][$notNull]=true')).to.deep.equal(withSummary);
      expect(await find('filters[summary][$notNull]=0')).to.deep.equal(noSummary);
      expect(await find('filters[reviewer][$null]=true')).to.deep.equal(where((r) => r.reviewer == null));
    });
  });

  describe('string operators', () => {
    it('$contains, $startsWith, $endsWith, $eq are case-sensitive', async () => {
      expect(await find('filters[title][$contains]=Matter')).to.deep.equal(where((r) => title(r).includes('Matter')));
      expect(await find('filters[title][$contains]=matter')).to.deep.equal([]);
      expect(await find('filters[title][$startsWith]=The')).to.deep.equal(where((r) => title(r).startsWith('The')));
      expect(await find('filters[title][$endsWith]=Secrets')).to.deep.equal(where((r) => title(r).endsWith('Secrets')));
      expect(await find('filters[title][$eq]=sushi secrets')).to.deep.equal([]);
    });
    it('the case-insensitive ones fold case Unicode-wise', async () => {
      expect(await find('filters[title][$containsi]=été')).to.deep.equal([7]);
      expect(await find('filters[title][$startsWithi]=THE')).to.deep.equal(
        where((r) => title(r).toLowerCase().startsWith('the')),
      );
      expect(await find('filters[title][$endsWithi]=SECRETS')).to.deep.equal(
        where((r) => title(r).endsWith('Secrets')),
      );
      expect(await find('filters[title][$eqi]=SUSHI secrets')).to.deep.equal(
        where((r) => title(r) === 'Sushi Secrets'),
      );
      expect(await find('filters[title][$nei]=SUSHI secrets')).to.deep.equal(
        where((r) => title(r) !== 'Sushi Secrets'),
      );
    });
    it('$notContains and $notContainsi', async () => {
      expect(await find('filters[title][$notContains]=e')).to.deep.equal(where((r) => !title(r).includes('e')));
      expect(await find('filters[title][$notContainsi]=E')).to.deep.equal(
        where((r) => !title(r).toLowerCase().includes('e')),
      );
      expect(await find('filters[summary][$notContains]=zzz')).to.deep.equal(where((r) => r.summary != null));
    });
    it('regular-expression characters, %, _ and * match literally', async () => {
      expect(await find('filters[title][$contains]=(%2520)')).to.deep.equal([21]);
      expect(await find('filters[title][$contains]=%25')).to.deep.equal(where((r) => title(r).includes('%')));
      expect(await find('filters[title][$contains]=_')).to.deep.equal([]);
      expect(await find('filters[title][$contains]=.')).to.deep.equal(where((r) => title(r).includes('.')));
      expect(await find('filters[title][$startsWith]=.*')).to.deep.equal([]);
      expect(await find('filters[title][$contains]=?')).to.deep.equal(where((r) => title(r).includes('?')));
      expect(await find('filters[title][$eq]=Why%20*Stars*%20Matter')).to.deep.equal([4]);
    });
  });

  describe('casting by attribute type', () => {
    it('integer, float and decimal values are numbers; a non-number is a 400', async () => {
      expect(await find('filters[price][$gte]=10.5')).to.deep.equal(
        where((r) => r.price != null && Number(r.price) >= 10.5),
      );
      expect(await find('filters[rating][$gt]=4')).to.deep.equal(
        where((r) => r.rating != null && Number(r.rating) > 4),
      );
      expect((await rejected('filters[readingTime][$eq]=abc')).status).to.equal(400);
      expect((await rejected('filters[price][$in][0]=1&filters[price][$in][1]=x')).status).to.equal(400);
    });
    it('biginteger compares exactly as an integer, by value with another number; text is a 400', async () => {
      expect(await find('filters[views][$eq]=3000123457')).to.deep.equal([1]);
      expect(await find('filters[views][$eq]=3000123457.0')).to.deep.equal([1]);
      expect(await find('filters[views][$eq]=3.5')).to.deep.equal([]);
      expect((await rejected('filters[views][$eq]=3.5x')).status).to.equal(400);
    });
    it('booleans from true/false/t/f/1/0', async () => {
      const featured = where((r) => r.featured === true);
      expect(await find('filters[featured]=true')).to.deep.equal(featured);
      expect(await find('filters[featured]=t')).to.deep.equal(featured);
      expect(await find('filters[featured][$eq]=1')).to.deep.equal(featured);
      expect(await find('filters[featured]=0')).to.deep.equal(where((r) => r.featured === false));
    });
    it('dates compare as YYYY-MM-DD; an ISO date-time is reduced to its date; garbage is a 400', async () => {
      expect(await find('filters[publishDate][$eq]=2023-01-08T10:00:00Z')).to.deep.equal([1]);
      expect(await find('filters[publishDate][$lt]=2023-02-01')).to.deep.equal(
        where((r) => r.publishDate != null && String(r.publishDate) < '2023-02-01'),
      );
      expect((await rejected('filters[publishDate][$eq]=yesterday')).message).to.equal(
        'Invalid format, expected yyyy-MM-dd',
      );
      expect((await rejected('filters[publishDate][$eq]=2023-02-30')).status).to.equal(400);
    });
    it('datetimes: ISO strings, date-only values at midnight UTC, timestamps in ms', async () => {
      const before = (iso: string) => where((r) => r.scheduledAt instanceof Date && r.scheduledAt < new Date(iso));
      expect(await find('filters[scheduledAt][$lt]=2024-03-01')).to.deep.equal(before('2024-03-01T00:00:00.000Z'));
      expect(await find('filters[scheduledAt][$lt]=2024-06-01T12:00:00.000Z')).to.deep.equal(
        before('2024-06-01T12:00:00.000Z'),
      );
      expect(await find(`filters[scheduledAt][$lt]=${Date.parse('2024-06-01T12:00:00.000Z')}`)).to.deep.equal(
        before('2024-06-01T12:00:00.000Z'),
      );
      expect((await rejected('filters[scheduledAt][$lt]=soon')).message).to.equal(
        'Invalid format, expected a timestamp or an ISO date',
      );
    });
    it('times: HH:mm:ss with optional fraction; the short form is a 400 (case 243)', async () => {
      expect(await find('filters[startTime][$eq]=09:15:00', 'events')).to.deep.equal([1]);
      expect(await find('filters[startTime][$lt]=10:30:00.0', 'events')).to.deep.equal([1, 10]);
      expect((await rejected('filters[startTime][$gt]=12:00', 'events')).message).to.equal(
        'Invalid time format, expected HH:mm:ss.SSS',
      );
    });
    it('a null-looking string is a string (case 147); ids that are not integers match nothing (case 174)', async () => {
      expect(await find('filters[summary][$eq]=null')).to.deep.equal([]);
      expect(await find('filters[id][$in]=1%2C2')).to.deep.equal([]);
      expect(await find('filters[id][$in][0]=')).to.deep.equal([]);
    });
    it('json attributes: $null and $notNull look at the whole value', async () => {
      expect(await find('filters[metadata][$null]=true')).to.deep.equal(where((r) => r.metadata == null));
      expect(await find('filters[details][$notNull]=true', 'events')).to.have.length.greaterThan(0);
    });
  });

  describe('logical operators', () => {
    it('$or, $and, nested', async () => {
      expect(await find('filters[$or][0][kind]=news&filters[$or][1][featured]=true')).to.deep.equal(
        where((r) => r.kind === 'news' || r.featured === true),
      );
      expect(await find('filters[$and][0][kind]=news&filters[$and][1][featured]=true')).to.deep.equal(
        where((r) => r.kind === 'news' && r.featured === true),
      );
      expect(
        await find(
          'filters[$or][0][$and][0][kind]=news&filters[$or][0][$and][1][featured]=true&filters[$or][1][readingTime][$lt]=3',
        ),
      ).to.deep.equal(where((r) => (r.kind === 'news' && r.featured === true) || (rt(r) != null && Number(rt(r)) < 3)));
    });
    it('$not at the top level, at the attribute level, and twice', async () => {
      expect(await find('filters[$not][kind]=news')).to.deep.equal(where((r) => r.kind !== 'news'));
      expect(await find('filters[readingTime][$not][$lt]=10')).to.deep.equal(
        where((r) => rt(r) != null && Number(rt(r)) >= 10),
      );
      expect(await find('filters[$not][$not][kind]=news')).to.deep.equal(where((r) => r.kind === 'news'));
      expect(await find('filters[$not][$or][0][kind]=news&filters[$not][$or][1][kind]=review')).to.deep.equal(
        where((r) => r.kind !== 'news' && r.kind !== 'review'),
      );
      expect(await find('filters[summary][$not][$null]=true')).to.deep.equal(where((r) => r.summary != null));
    });
    it('$not inside a relation or a component is refused (Strapi 4.26: 500)', async () => {
      for (const query of [
        'filters[author][$not][name][$eq]=Alice%20Martin',
        'filters[seo][$not][metaTitle][$null]=true',
        'filters[tags][$not][name]=Paris',
      ])
        expect((await rejected(query)).status, query).to.equal(400);
      // at the top level it is served
      expect(await find('filters[$not][author][name]=Grace%20Hopper')).to.be.an('array').that.is.not.empty;
    });
    it('$or and $and at the attribute level are refused (Strapi 4.26: 500 "Undefined attribute level operator")', async () => {
      for (const [query, key] of [
        ['filters[kind][$or][0][$eq]=news&filters[kind][$or][1][$eq]=opinion', '$or'],
        ['filters[kind][$and][0][$ne]=news', '$and'],
        ['filters[author][id][$or][0][$eq]=1', '$or'],
      ]) {
        const error = await rejected(query);
        expect([error.status, error.message], query).to.deep.equal([400, `Undefined attribute level operator ${key}`]);
      }
    });
  });

  describe('deep filters through relations', () => {
    const authorOf = (r: Row) => byId('authors', r.author);
    it('to-one by a field of the target', async () => {
      expect(await find('filters[author][name][$eq]=Grace%20Hopper')).to.deep.equal(where((r) => r.author === 7));
      expect(await find('filters[category][name][$eq]=Technology')).to.deep.equal(where((r) => r.category === 1));
    });
    it('to-one by id: in place, and the shorthand forms', async () => {
      expect(await find('filters[author][id]=2')).to.deep.equal(where((r) => r.author === 2));
      expect(await find('filters[author]=2')).to.deep.equal(where((r) => r.author === 2));
      expect(await find('filters[author][$in][0]=1&filters[author][$in][1]=2')).to.deep.equal(
        where((r) => r.author === 1 || r.author === 2),
      );
      expect(await find('filters[author][id][$ne]=2')).to.deep.equal(where((r) => r.author != null && r.author !== 2));
    });
    it('no related entry: id $null, and a row of NULLs for other fields (LEFT JOIN)', async () => {
      expect(await find('filters[author][id][$null]=true')).to.deep.equal(where((r) => r.author == null));
      expect(await find('filters[author][id][$notNull]=true')).to.deep.equal(where((r) => r.author != null));
      expect(await find('filters[author][$null]=true')).to.deep.equal(where((r) => r.author == null));
      expect(await find('filters[author][bio][$null]=true')).to.deep.equal(
        where((r) => r.author == null || authorOf(r)?.bio == null),
      );
      expect(await find('filters[tags][id][$null]=true')).to.deep.equal(
        where((r) => !Array.isArray(r.tags) || r.tags.length === 0),
      );
      expect(await find('filters[tags][name][$null]=true')).to.deep.equal(
        where((r) => !Array.isArray(r.tags) || r.tags.length === 0),
      );
    });
    it('to-many: some related entry matches', async () => {
      const tagged = (name: string) =>
        where((r) => Array.isArray(r.tags) && r.tags.some((id) => byId('tags', id)?.name === name));
      expect(await find('filters[tags][name][$eq]=GraphQL')).to.deep.equal(tagged('GraphQL'));
      expect(await find('filters[tags][id][$in][0]=3&filters[tags][id][$in][1]=5')).to.deep.equal(
        where((r) => Array.isArray(r.tags) && r.tags.some((id) => id === 3 || id === 5)),
      );
      expect(await find('filters[tags][id][$ne]=6')).to.deep.equal(
        where((r) => Array.isArray(r.tags) && r.tags.some((id) => id !== 6)),
      );
      expect(await find('filters[tags][weight][$gt]=4')).to.deep.equal(
        where((r) => Array.isArray(r.tags) && r.tags.some((id) => Number(byId('tags', id)?.weight ?? -Infinity) > 4)),
      );
    });
    it('inverse (mappedBy) sides', async () => {
      expect(await find('filters[articles][title][$contains]=Sushi', 'authors')).to.deep.equal([2]);
      expect(await find('filters[articles][id][$null]=true', 'authors')).to.deep.equal([8]);
      // like Strapi's joins, a deep filter sees every related row (drafts and other locales too)
      const newsTags = new Set(
        (stored.articles ?? []).filter((r) => r.kind === 'news').flatMap((r) => (Array.isArray(r.tags) ? r.tags : [])),
      );
      expect(await find('filters[articles][kind][$eq]=news', 'tags')).to.deep.equal(
        [...newsTags].map(Number).sort((a, b) => a - b),
      );
      expect(await find('filters[author][name][$startsWith]=Alice', 'author-profiles')).to.deep.equal([1]);
      expect(await find('filters[author][id][$null]=true', 'author-profiles')).to.deep.equal([8]);
    });
    it('nested relations at any depth, and self relations', async () => {
      expect(await find('filters[author][profile][handle][$eq]=grace_h')).to.deep.equal(where((r) => r.author === 7));
      expect(await find('filters[articles][author][profile][handle][$eq]=grace_h', 'categories')).to.deep.equal([
        1, 2, 3, 4, 5,
      ]);
      expect(await find('filters[relatedTags][relatedTags][name][$eq]=JavaScript', 'tags')).to.deep.equal([4, 9, 11]);
    });
    it('$not through a relation applies to the related row', async () => {
      expect(await find('filters[$not][author][name][$eq]=Grace%20Hopper')).to.deep.equal(
        where((r) => r.author != null && r.author !== 7),
      );
    });
    it('$or mixing a field and a deep filter', async () => {
      expect(await find('filters[$or][0][featured]=true&filters[$or][1][category][name]=Travel')).to.deep.equal(
        where((r) => r.featured === true || r.category === 3),
      );
    });
  });

  describe('components', () => {
    it('single components by field', async () => {
      expect(await find('filters[address][city][$eq]=Paris', 'authors')).to.deep.equal([1]);
      expect(await find('filters[address][city][$null]=true', 'authors')).to.deep.equal([5]);
      expect(await find('filters[seo][metaTitle][$containsi]=strapi')).to.deep.equal([1]);
    });
    it('repeatable components: some element matches, conditions on the same element', async () => {
      expect(await find('filters[links][label][$eq]=Link%202%20of%201')).to.deep.equal([1]);
      expect(await find('filters[links][label][$endsWith]=of%201&filters[links][id][$gt]=0')).to.deep.equal([1]);
      expect(await find('filters[seo][metaSocial][network][$eq]=Facebook')).to.deep.equal([1, 7, 13, 25, 31, 37]);
    });
  });

  describe('rejected input: 400 ValidationError naming the key', () => {
    const cases: [string, string, string?][] = [
      ['filters[nope][$eq]=1', 'Invalid parameter nope'],
      ['filters[title][$foo]=x', 'Invalid parameter $foo'],
      ['filters[$foo][0][title]=x', 'Invalid parameter $foo'],
      ['filters[author][name][$foo]=x', 'Invalid parameter $foo'],
      ['filters[author][nope]=x', 'Invalid parameter nope'],
      ['filters[internalNotes][$eq]=x', 'Invalid parameter internalNotes'],
      ['filters[author][secretCode][$eq]=x', 'Invalid parameter secretCode'],
      ['filters[secretCode][$eq]=code-1-secret', 'Invalid parameter secretCode', 'authors'],
      ['filters[blocks][id]=1', 'Invalid parameter blocks'],
      ['filters[seo][nope]=1', 'Invalid parameter nope'],
    ];
    for (const [query, message, plural] of cases) {
      it(`${query} → ${message}`, async () => {
        const error = await rejected(query, plural);
        expect(error.status).to.equal(400);
        expect(error.name).to.equal('ValidationError');
        expect(error.message).to.equal(message);
      });
    }
    it('malformed values', async () => {
      for (const query of [
        'filters=abc',
        'filters[title][$eq][a]=b',
        'filters[title][$in][0][a]=b',
        'filters[readingTime][$between]=5%2C10',
        'filters[readingTime][$between][0]=5',
        'filters[$or]=x',
        'filters[$or][0]=x',
        'filters[seo]=x',
      ]) {
        const error = await rejected(query);
        expect(error.status, query).to.equal(400);
        expect(error.name, query).to.equal('ValidationError');
      }
    });
    it('a relation whose target the caller cannot read, at any depth', async () => {
      const noAuthors: QueryAccess = { canRead: (uid) => uid !== 'api::author.author' };
      expect((await rejected('filters[author][name]=x', 'articles', noAuthors)).message).to.equal(
        'Invalid parameter author',
      );
      expect((await rejected('filters[author][id]=1', 'articles', noAuthors)).message).to.equal(
        'Invalid parameter author',
      );
      expect((await rejected('filters[articles][author][name]=x', 'categories', noAuthors)).message).to.equal(
        'Invalid parameter author',
      );
      expect(await find('filters[category][name]=Travel', 'articles', noAuthors)).to.deep.equal(
        where((r) => r.category === 3),
      );
    });
  });
});

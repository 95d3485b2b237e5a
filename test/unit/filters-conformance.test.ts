import { expect } from 'chai';
import qs from 'qs';
import { AppError } from '../../src/errors/index.js';
import { publicationRegistry, publicationStore, runFind } from '../helpers/publication-store.js';

/**
 * The recorded Strapi 4.26 answers for filters and sort (conformance cases 120–276, 423, 432):
 * the compiled stages run with mingo over the seed in its storage layout, and must keep the same
 * entries in the same order (400 cases must throw a ValidationError with Strapi's message).
 */
type Expected = number[] | { status: number; message: string };
const CASES: [number, string, string, string, Expected][] = [
  [120, "implicit $eq", "articles", "filters[title]=Q%26A%20with%20a%20Chef&fields[0]=title&pagination[pageSize]=100", [23]],
  [123, "$eqi with accents (Unicode case folding)", "articles", "filters[title][$eqi]=%C3%A9t%C3%A9%20%C3%80%20PARIS&fields[0]=title&pagination[pageSize]=100", [7]],
  [126, "$contains", "articles", "filters[title][$contains]=Paris&fields[0]=title&pagination[pageSize]=100", [7]],
  [129, "$notContains", "articles", "filters[title][$notContains]=e&fields[0]=title&pagination[pageSize]=100", [3,7,14,15]],
  [132, "$startsWith case-sensitive", "articles", "filters[title][$startsWith]=the&fields[0]=title&pagination[pageSize]=100", [13]],
  [135, "$endsWithi", "articles", "filters[title][$endsWithi]=MATTER&fields[0]=title&pagination[pageSize]=100", [4,17]],
  [138, "$contains * literal", "articles", "filters[title][$contains]=*&fields[0]=title&pagination[pageSize]=100", [4]],
  [141, "$containsi é", "articles", "filters[title][$containsi]=%C3%89&fields[0]=title&pagination[pageSize]=100", [2,7,20,39]],
  [144, "$null on string", "articles", "filters[summary][$null]=true&fields[0]=title&pagination[pageSize]=100", [7,14,21,28,35]],
  [147, "$eq null-like string", "articles", "filters[summary][$eq]=null&fields[0]=title&pagination[pageSize]=100", []],
  [150, "enumeration $in", "articles", "filters[kind][$in][0]=news&filters[kind][$in][1]=tutorial&fields[0]=title&pagination[pageSize]=100", [1,4,8,9,13,16,17,20,21,24,25,28,29,32,36,37,40]],
  [153, "richtext $containsi", "articles", "filters[body][$containsi]=PARAGRAPH%20FOR%20ARTICLE%201.&fields[0]=title&pagination[pageSize]=100", [1]],
  [156, "integer $lt", "articles", "filters[readingTime][$lt]=4&fields[0]=title&pagination[pageSize]=100", [24,29]],
  [159, "integer $between as comma string", "articles", "filters[readingTime][$between]=5%2C10&fields[0]=title&pagination[pageSize]=100", {"status":400,"message":"<any-string>"}],
  [162, "integer $eq non-numeric value", "articles", "filters[readingTime][$eq]=abc&fields[0]=title&pagination[pageSize]=100", {"status":400,"message":"<any-string>"}],
  [165, "decimal $lt", "articles", "filters[price][$lt]=10&fields[0]=title&pagination[pageSize]=100", [13,22,25,31,34,37]],
  [168, "biginteger $eq", "articles", "filters[views][$eq]=3000123457&fields[0]=title&pagination[pageSize]=100", [1]],
  [171, "id implicit eq", "articles", "filters[id]=3&fields[0]=title&pagination[pageSize]=100", [3]],
  [174, "id $in comma string", "articles", "filters[id][$in]=1%2C2&fields[0]=title&pagination[pageSize]=100", []],
  [177, "boolean implicit false", "articles", "filters[featured]=false&fields[0]=title&pagination[pageSize]=100", [2,3,4,6,7,8,9,10,11,13,14,16,17,18,21,22,23,24,27,28,29,30,31,32,34,36,37,39]],
  [180, "boolean $null", "articles", "filters[featured][$null]=true&fields[0]=title&pagination[pageSize]=100", []],
  [183, "date $eq", "articles", "filters[publishDate][$eq]=2023-01-08&fields[0]=title&pagination[pageSize]=100", [1]],
  [186, "datetime compared with a date-only value", "articles", "filters[scheduledAt][$lt]=2024-03-01&fields[0]=title&pagination[pageSize]=100", [17,24,29,36]],
  [189, "publishedAt $null (live)", "articles", "filters[publishedAt][$null]=true&fields[0]=title&pagination[pageSize]=100", []],
  [192, "publishedAt $lt seeded value", "articles", "filters[publishedAt][$lt]=2024-01-10T00%3A00%3A00.000Z&fields[0]=title&pagination[pageSize]=100", [1,2,3,4,6,7,8]],
  [195, "json $notNull", "articles", "filters[metadata][$notNull]=true&fields[0]=title&pagination[pageSize]=100", [2,3,4,6,8,9,10,11,14,15,16,17,18,20,21,22,23,24,27,28,29,30,32,34,35,36,39,40]],
  [198, "$or", "articles", "filters[$or][0][kind][$eq]=news&filters[$or][1][featured][$eq]=true&fields[0]=title&pagination[pageSize]=100", [1,4,8,15,16,20,24,25,28,32,35,36,40]],
  [201, "$not (attribute level)", "articles", "filters[kind][$not][$eq]=news&fields[0]=title&pagination[pageSize]=100", [1,2,3,6,7,9,10,11,13,14,15,17,18,21,22,23,25,27,29,30,31,34,35,37,39]],
  [204, "$and containing $or", "articles", "filters[$and][0][$or][0][kind][$eq]=news&filters[$and][0][$or][1][kind][$eq]=review&filters[$and][1][featured][$eq]=true&fields[0]=title&pagination[pageSize]=100", [20,40]],
  [207, "multiple operators on one field", "articles", "filters[readingTime][$gt]=5&filters[readingTime][$lt]=9&fields[0]=title&pagination[pageSize]=100", [2,14,31]],
  [210, "deep filter manyToOne id", "articles", "filters[author][id][$eq]=2&fields[0]=title&pagination[pageSize]=100", [2,9,16,23,30,37]],
  [213, "deep filter manyToMany", "articles", "filters[tags][name][$eq]=GraphQL&fields[0]=title&pagination[pageSize]=100", [2,13,18,24,29,40]],
  [216, "relation is empty (author id $null)", "articles", "filters[author][id][$null]=true&fields[0]=title&pagination[pageSize]=100", [11,22]],
  [219, "oneWay relation filter", "articles", "filters[reviewer][name][$startsWith]=G&fields[0]=title&pagination[pageSize]=100", [36]],
  [222, "nested component filter", "articles", "filters[seo][metaSocial][network][$eq]=Twitter&fields[0]=title&pagination[pageSize]=100", [1,7,13,25,31,37]],
  [225, "filter on unknown attribute", "articles", "filters[nope][$eq]=1&fields[0]=title&pagination[pageSize]=100", {"status":400,"message":"Invalid parameter nope"}],
  [228, "filter with unknown top-level operator", "articles", "filters[$foo][0][title]=x&fields[0]=title&pagination[pageSize]=100", {"status":400,"message":"<any-string>"}],
  [231, "authors filter on password attribute", "authors", "filters[secretCode][$eq]=code-1-secret&fields[0]=name", {"status":400,"message":"Invalid parameter secretCode"}],
  [234, "authors $eqi", "authors", "filters[name][$eqi]=ALICE%20MARTIN&fields[0]=name", [1]],
  [237, "authors component filter", "authors", "filters[address][city][$eq]=Paris&fields[0]=name", [1]],
  [240, "tags filter on manyWay relation", "tags", "filters[relatedTags][name][$eq]=JavaScript&fields[0]=name", [2,3,11]],
  [243, "events time $gt short format", "events", "filters[startTime][$gt]=12%3A00&fields[0]=name&fields[1]=startTime", {"status":400,"message":"Invalid time format, expected HH:mm:ss.SSS"}],
  [246, "events date $eq", "events", "filters[day][$eq]=2024-03-06&fields[0]=name", [1]],
  [249, "events boolean $null", "events", "filters[online][$null]=true&fields[0]=name", [3,6,9]],
  [252, "sort by string asc (default direction)", "articles", "sort=title&fields[0]=title&pagination[pageSize]=100", [3,10,25,11,32,2,31,8,34,1,37,22,40,18,35,20,36,23,15,29,16,30,6,28,14,21,4,17,27,24,9,13,7,39]],
  [255, "sort array", "articles", "sort[0]=kind%3Aasc&sort[1]=id%3Adesc&fields[1]=kind&fields[0]=title&pagination[pageSize]=100", [40,36,32,28,24,20,16,8,4,39,35,31,27,23,15,11,7,3,34,30,22,18,14,10,6,2,37,29,25,21,17,13,9,1]],
  [258, "sort integer with nulls asc", "articles", "sort[0]=readingTime&sort[1]=id&fields[1]=readingTime&fields[0]=title&pagination[pageSize]=100", [10,20,30,40,29,24,7,36,2,31,14,9,21,4,16,28,11,23,6,35,18,1,13,25,8,37,3,32,15,27,39,22,34,17]],
  [261, "sort decimal", "articles", "sort[0]=price%3Aasc&sort[1]=id%3Aasc&fields[1]=price&fields[0]=title&pagination[pageSize]=100", [4,8,16,20,24,28,32,36,40,37,34,31,25,22,13,10,7,1,35,29,23,17,14,11,2,39,30,27,21,18,15,9,6,3]],
  [264, "sort relation field (dotted)", "articles", "sort[0]=author.name%3Aasc&sort[1]=id%3Aasc&fields[0]=title&pagination[pageSize]=100", [11,22,1,8,15,29,36,3,10,17,24,31,4,18,25,32,39,6,13,20,27,34,7,14,21,28,35,2,9,16,23,30,37,40]],
  [267, "sort invalid direction", "articles", "sort=title%3Asideways&fields[0]=title&pagination[pageSize]=100", {"status":400,"message":"<any-string>"}],
  [270, "sort with filters", "articles", "sort[0]=readingTime%3Adesc&sort[1]=id%3Aasc&filters[kind][$eq]=opinion&fields[1]=readingTime&fields[0]=title&pagination[pageSize]=100", [39,27,15,3,35,23,11,31,7]],
  [273, "categories sort nullable integer desc", "categories", "sort=sortOrder%3Adesc&fields[0]=name&fields[1]=sortOrder", [5,4,3,2,1,6]],
  [276, "events sort day desc with preview", "events", "sort=day%3Adesc&publicationState=preview&fields[0]=name&fields[1]=day", [5,10,4,9,3,8,2,7,1,6]],
  [423, "filters $in with empty-looking value", "articles", "filters[id][$in][0]=&fields[0]=title", []],
  [432, "categories uid $startsWith", "categories", "filters[slug][$startsWith]=e&fields[0]=name&sort=id", [5,6]],
];

describe('filters and sort: recorded Strapi answers (compiled stages on mingo)', () => {
  const registry = publicationRegistry();
  const store = publicationStore(registry);

  for (const [id, name, plural, query, expected] of CASES) {
    it(`case ${id}: ${name}`, () => {
      const parsed = qs.parse(query, { depth: 20, arrayLimit: 100 });
      if (Array.isArray(expected)) {
        expect(runFind(registry, store, plural, parsed)).to.deep.equal(expected);
      } else {
        let error: unknown;
        try {
          runFind(registry, store, plural, parsed);
        } catch (caught) {
          error = caught;
        }
        expect(error).to.be.instanceOf(AppError);
        const appError = error as AppError;
        expect(appError.status).to.equal(expected.status);
        if (expected.message !== '<any-string>') expect(appError.message).to.equal(expected.message);
      }
    });
  }
});

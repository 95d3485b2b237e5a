import { expect } from 'chai';
import qs from 'qs';
import { AppError } from '../../src/errors/index.js';
import { FILTER_SORT_CASES } from '../helpers/filter-sort-cases.js';
import { publicationRegistry, publicationStore, runFind } from '../helpers/publication-store.js';

/**
 * The recorded Strapi 4.26 answers for filters and sort (conformance cases 120–276, 423, 432):
 * the compiled stages run with mingo over the seed in its storage layout, and must keep the same
 * entries in the same order (400 cases must throw a ValidationError with Strapi's message).
 */

describe('filters and sort: recorded Strapi answers (compiled stages on mingo)', () => {
  const registry = publicationRegistry();
  const store = publicationStore(registry);

  for (const [id, name, plural, query, expected] of FILTER_SORT_CASES) {
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

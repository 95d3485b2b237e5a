import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/**
 * Strapi 4.26's recorded answers for fields, populate, pagination, publicationState and locale
 * (test/fixtures/recorded: anonymous REST reads), asked over HTTP of the service on the demo seed.
 * Where the expected answer is deliberately not Strapi's, the case says why (docs/strapi-deviations.md).
 */

const RECORDED = new URL('../fixtures/recorded/', import.meta.url);

interface RecordedCase {
  id: number;
  name: string;
  request: { method: string; path: string };
  status: number;
  body: unknown;
}

const cases = readdirSync(RECORDED)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(new URL(file, RECORDED), 'utf8')) as RecordedCase);

/** Timestamps become `<timestamp>` (the recording's normalisation). */
function normalise(value: unknown, key = ''): unknown {
  if (['createdAt', 'updatedAt', 'publishedAt'].includes(key) && typeof value === 'string') return '<timestamp>';
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  return value;
}

/** The expected body with its `<any>` / `<any-string>` placeholders replaced by the actual values they match. */
function resolvePlaceholders(expected: unknown, actual: unknown): unknown {
  if (expected === '<any>' && actual !== undefined) return actual;
  if (expected === '<any-string>' && typeof actual === 'string') return actual;
  if (Array.isArray(expected) && Array.isArray(actual))
    return expected.map((item, i) => resolvePlaceholders(item, actual[i]));
  if (
    expected !== null &&
    typeof expected === 'object' &&
    actual !== null &&
    typeof actual === 'object' &&
    !Array.isArray(actual)
  ) {
    return Object.fromEntries(
      Object.entries(expected).map(([k, v]) => [k, resolvePlaceholders(v, (actual as Record<string, unknown>)[k])]),
    );
  }
  return expected;
}

describe('REST reads: recorded Strapi answers', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  it('has the recorded cases', () => {
    expect(cases).to.have.length(57);
  });

  for (const recorded of cases) {
    it(`case ${recorded.id}: ${recorded.name}`, async () => {
      const { path } = recorded.request;
      const res = await request(service.app).get(path);
      const body = normalise(res.body);
      expect(res.status, path).to.equal(recorded.status);
      expect(body, path).to.deep.equal(resolvePlaceholders(recorded.body, body));
    });
  }
});

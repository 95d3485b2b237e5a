import { expect } from 'chai';
import request from 'supertest';
import { withCpuTime } from '../helpers/cpu-time.js';
import { seedPublication } from '../helpers/seed.js';
import { createTestService, type TestService } from '../helpers/server.js';

/** Populate that could hold the database: depth (`api.rest.maxPopulateDepth`) and breadth (`maxPopulateRelations`). */
describe('REST populate limits', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService();
    await seedPublication(service.context);
  });
  after(() => service.close());

  // to-one hops (article → author → profile → author → …), so the answer stays small at any depth
  const hop = (i: number) => (i === 0 ? 'author' : i % 2 === 1 ? 'profile' : 'author');
  const chain = (levels: number) => Array.from({ length: levels }, (_, i) => hop(i)).join('.');

  it('allows 10 nested levels by default and refuses the 11th, in every populate form, naming the limit', async () => {
    const ok = await request(service.app).get(`/api/articles/1?fields[0]=title&populate=${chain(10)}`);
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    let level = ok.body.data.attributes.author.data;
    for (let i = 1; i < 10; i++) level = level.attributes[hop(i)].data;
    expect(level).to.have.property('id');
    const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `[${hop(i)}]`).join('[populate]');
    for (const query of [
      `populate=${chain(11)}`,
      `populate[0]=${chain(11)}`,
      `populate${nested(11)}=*`,
      `populate${nested(10)}[populate]=*`,
      `populate[author][populate]=${chain(11).slice('author.'.length)}`,
    ]) {
      const res = await request(service.app).get(`/api/articles?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.name).to.equal('ValidationError');
      expect(res.body.error.message, query).to.match(/populate may be nested at most 10 levels deep$/);
      expect(res.body.error.details).to.deep.equal({ maxPopulateDepth: 10 });
    }
  });

  /** The first `count` distinct relation paths from articles, breadth first: a wide but shallow populate. */
  function relationPaths(count: number): string[] {
    const registry = service.context.registry;
    const paths: string[] = [];
    const queue: [string, string][] = [['', 'api::article.article']];
    for (let next = queue.shift(); next && paths.length < count; next = queue.shift()) {
      const [prefix, uid] = next;
      for (const relation of Object.values(registry.contentType(uid)?.relations ?? {})) {
        const path = `${prefix}${relation.attribute}`;
        paths.push(path);
        queue.push([`${path}.`, relation.target]);
      }
    }
    return paths.slice(0, count);
  }

  it('refuses a populate of more than 100 relations in one request', async () => {
    const fits = await request(service.app).get(`/api/articles/1?populate=${relationPaths(100).join(',')}`);
    expect(fits.status).to.equal(200);
    const res = await request(service.app).get(`/api/articles/1?populate=${relationPaths(101).join(',')}`);
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.match(/at most 100 relations may be populated in one request$/);
    expect(res.body.error.details).to.deep.equal({ maxPopulateRelations: 100 });
  });

  it('refuses a populate thousands of levels deep (no stack overflow) in well under 2 s of CPU while other requests keep answering', async () => {
    const bomb = Array.from({ length: 1200 }, () => 'relatedTags').join('.');
    const {
      result: [refused, ...others],
      cpuMs,
    } = await withCpuTime(() =>
      Promise.all([
        request(service.app).get(`/api/tags?pagination[pageSize]=100&populate=${bomb}`),
        ...Array.from({ length: 5 }, () => request(service.app).get('/api/tags?populate=articles')),
      ]),
    );
    expect(refused?.status).to.equal(400);
    expect(cpuMs).to.be.below(2_000);
    for (const res of others) expect(res.status).to.equal(200);
  });

  it('reads both limits from config/api (rest.maxPopulateDepth, rest.maxPopulateRelations)', async () => {
    const strict = await createTestService({
      config: {
        api: {
          rest: { defaultLimit: 25, maxLimit: 100, withCount: true, maxPopulateDepth: 1, maxPopulateRelations: 3 },
        },
      },
    });
    try {
      expect((await request(strict.app).get('/api/articles?populate=author,seo,blocks')).status).to.equal(200);
      // components and dynamic-zone components are levels too
      for (const query of ['author.articles', 'seo.metaSocial', '[blocks][on][blocks.cta][populate]=*']) {
        const deep = await request(strict.app).get(`/api/articles?populate${query.startsWith('[') ? '' : '='}${query}`);
        expect(deep.status, query).to.equal(400);
        expect(deep.body.error.message).to.match(/at most 1 level deep$/);
      }
      expect((await request(strict.app).get('/api/articles?populate=author,category,tags')).status).to.equal(200);
      const wide = await request(strict.app).get('/api/articles?populate=author,category,tags,reviewer');
      expect(wide.body.error.message).to.match(/at most 3 relations/);
    } finally {
      await strict.close();
    }
  });
});

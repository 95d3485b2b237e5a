// Writes of different kinds racing on one entry, on two service instances: a manyToMany `set`
// against `connect`/`disconnect` from both sides, a GraphQL mutation against a REST update, a
// publication against an update of other attributes (REST and GraphQL each way).
// Each write lands whole and the result is one some serial order of them gives; the order keys of
// the inverse side name exactly the stored links.
import { expect } from 'chai';
import request from 'supertest';
import { createMany, range, startCluster, statuses, type Cluster, type RawDoc } from './helpers.js';

const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

/** Every order of `ops` applied to `start`: the sets a serial run can end with, as sorted lists joined. */
function serialOutcomes(start: number[], ops: Array<(tags: Set<number>) => Set<number>>): Set<string> {
  const outcomes = new Set<string>();
  const permute = (left: typeof ops, tags: Set<number>) => {
    if (left.length === 0) outcomes.add(sorted(tags).join());
    left.forEach((op, i) => permute([...left.slice(0, i), ...left.slice(i + 1)], op(new Set(tags))));
  };
  permute(ops, new Set(start));
  return outcomes;
}

describe('mixed writes racing on one entry (2 service instances on one database)', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let tags: number[];
  before(async () => {
    cluster = await startCluster(2);
    tags = await createMany(cluster, 'tags', 6, (i) => ({ name: `mixed ${i}`, slug: `mixed-${i}` }));
  });
  after(() => cluster.close());

  const stored = async (id: number): Promise<RawDoc> => (await cluster.docs('articles', { _id: id }))[0]!;
  const orderKeys = (doc: RawDoc): number[] =>
    sorted(Object.keys(((doc.__order ?? {}) as { tags?: object }).tags ?? {}).map(Number));

  it('a manyToMany set racing connects and disconnects from both sides ends as some serial order', async () => {
    const [t0, t1, t2, t3, t4, t5] = tags as [number, number, number, number, number, number];
    const outcomes = serialOutcomes(
      [t0, t1],
      [() => new Set([t2, t3]), (s) => s.add(t4), (s) => (s.delete(t0), s), (s) => s.add(t5)],
    );
    for (const round of range(1, 8)) {
      const [article] = await createMany(cluster, 'articles', 1, () => ({ title: `set ${round}`, tags: [t0, t1] }));
      const answers = await Promise.all([
        cluster.put(round, `/api/articles/${article}`, { data: { tags: { set: [t2, t3] } } }),
        cluster.put(round + 1, `/api/tags/${t4}`, { data: { articles: { connect: [article] } } }),
        cluster.put(round, `/api/tags/${t0}`, { data: { articles: { disconnect: [article] } } }),
        cluster.put(round + 1, `/api/articles/${article}`, { data: { tags: { connect: [t5] } } }),
      ]);
      expect(statuses(answers)).to.deep.equal({ 200: 4 });
      const doc = await stored(article!);
      const linked = (doc.tags as number[]).map(Number);
      expect(new Set(linked).size, `round ${round}: each tag once`).to.equal(linked.length);
      expect([...outcomes], `round ${round}: ${sorted(linked).join()}`).to.include(sorted(linked).join());
      expect(orderKeys(doc), `round ${round}: an order key per link`).to.deep.equal(sorted(linked));
    }
  });

  it('a GraphQL mutation racing a REST update of one entry: each lands whole, the last one wins', async () => {
    const [t0, t1, t2, t3] = tags as [number, number, number, number];
    for (const round of range(1, 8)) {
      const [article] = await createMany(cluster, 'articles', 1, () => ({ title: `mixed ${round}`, tags: [t0] }));
      const graphql = request(cluster.services[round % 2]!.app)
        .post('/graphql')
        .set(cluster.auth)
        .send({
          query: `mutation { updateArticle(id: ${article}, data: { title: "graphql", tags: ["${t1}", "${t2}"] }) { data { id } } }`,
        });
      const rest = cluster.put(round + 1, `/api/articles/${article}`, {
        data: { title: 'rest', tags: { connect: [t3] } },
      });
      const [byGraphql, byRest] = await Promise.all([graphql, rest]);
      expect(byGraphql.status, JSON.stringify(byGraphql.body)).to.equal(200);
      expect(byGraphql.body.errors, JSON.stringify(byGraphql.body)).to.equal(undefined);
      expect(byRest.status, JSON.stringify(byRest.body)).to.equal(200);
      const doc = await stored(article!);
      const linked = sorted((doc.tags as number[]).map(Number));
      // GraphQL last: its list alone; REST last: the list with the connected tag
      if (doc.title === 'graphql') expect(linked, `round ${round}`).to.deep.equal(sorted([t1, t2]));
      else expect([doc.title, linked], `round ${round}`).to.deep.equal(['rest', sorted([t1, t2, t3])]);
      expect(orderKeys(doc), `round ${round}: an order key per link`).to.deep.equal(linked);
    }
  });

  it('publishing racing an update of other attributes: both land', async () => {
    for (const round of range(1, 6)) {
      const [article] = await createMany(cluster, 'articles', 1, () => ({
        title: `draft ${round}`,
        publishedAt: null,
      }));
      const publishedAt = new Date(Date.UTC(2026, 0, round)).toISOString();
      const answers = await Promise.all([
        cluster.put(round, `/api/articles/${article}`, { data: { publishedAt } }),
        cluster.put(round + 1, `/api/articles/${article}`, {
          data: { title: `edited ${round}`, tags: { connect: [tags[0]] } },
        }),
      ]);
      expect(statuses(answers)).to.deep.equal({ 200: 2 });
      const doc = await stored(article!);
      expect(doc.title).to.equal(`edited ${round}`);
      expect((doc.publishedAt as Date).toISOString()).to.equal(publishedAt);
      expect((doc.tags as number[]).map(Number)).to.deep.equal([tags[0]]);
    }
  });

  it('unpublishing through GraphQL racing a REST edit, and publishing through REST racing a GraphQL edit: both land', async () => {
    const graphql = (i: number, mutation: string) =>
      request(cluster.services[i % 2]!.app)
        .post('/graphql')
        .set(cluster.auth)
        .send({ query: `mutation { ${mutation} }` });
    for (const round of range(1, 6)) {
      const publishedAt = new Date(Date.UTC(2026, 1, round)).toISOString();
      const [published, draft] = await createMany(cluster, 'articles', 2, (i) => ({
        title: `toggled ${round}`,
        publishedAt: i === 0 ? publishedAt : null,
      }));
      const answers = await Promise.all([
        graphql(round, `updateArticle(id: ${published}, data: { publishedAt: null }) { data { id } }`),
        cluster.put(round + 1, `/api/articles/${published}`, {
          data: { title: `rest ${round}`, tags: { connect: [tags[1]] } },
        }),
        cluster.put(round, `/api/articles/${draft}`, { data: { publishedAt } }),
        graphql(
          round + 1,
          `updateArticle(id: ${draft}, data: { title: "graphql ${round}", tags: ["${tags[2]}"] }) { data { id } }`,
        ),
      ]);
      expect(statuses(answers), JSON.stringify(answers.map((a) => a.body))).to.deep.equal({ 200: 4 });
      for (const answer of [answers[0]!, answers[3]!]) expect(answer.body.errors).to.equal(undefined);
      const unpublished = await stored(published!);
      expect([unpublished.title, unpublished.publishedAt, (unpublished.tags as number[]).map(Number)]).to.deep.equal([
        `rest ${round}`,
        null,
        [tags[1]],
      ]);
      const nowPublished = await stored(draft!);
      expect(nowPublished.title).to.equal(`graphql ${round}`);
      expect((nowPublished.publishedAt as Date).toISOString()).to.equal(publishedAt);
      expect((nowPublished.tags as number[]).map(Number)).to.deep.equal([tags[2]]);
    }
  });
});

// Random concurrent editors (random-editors.ts), replayable: EDITORS_SEED picks the run,
// EDITORS_OPERATIONS its length, EDITORS_LOG=1 prints each refusal. Every answer must be a 200, or a 400/404 in Strapi's shape, and
// the invariants must hold afterwards.
import { expect } from 'chai';
import { createMany, startCluster, type Cluster, type RawDoc } from './helpers.js';
import { checkInvariants, runEditors } from './random-editors.js';

const seed = Number(process.env.EDITORS_SEED ?? 20261207);
const operations = Number(process.env.EDITORS_OPERATIONS ?? 500);

for (const instances of [1, 2]) {
  describe(`random concurrent editors on relations (${instances} instance${instances > 1 ? 's' : ''}, seed ${seed})`, function () {
    // a longer replay (EDITORS_OPERATIONS) gets time in proportion
    this.timeout(Math.max(120_000, operations * 240));
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(instances);
    });
    after(() => cluster.close());

    it(`${operations} random creates, relation updates from both sides and deletes, 12 at a time, keep every invariant`, async () => {
      const run = await runEditors(cluster, { seed: seed + instances, operations, concurrency: 12 });
      expect(run.unexpected, 'answers other than 200 or a Strapi-shaped 400/404').to.deep.equal([]);
      expect(run.statuses[200] ?? 0, 'most requests succeed').to.be.greaterThan(operations / 3);
      expect(await checkInvariants(cluster, run)).to.deep.equal([]);
      if (instances > 1) return;

      // the checks see a broken store: a dangling id, a lost entry, one side of a link gone
      const [author] = await createMany(cluster, 'authors', 1, () => ({ name: 'to lose' }));
      const [tag] = await createMany(cluster, 'tags', 1, () => ({ name: 'to lose' }));
      const [article] = await createMany(cluster, 'articles', 1, () => ({ title: 'to break', author }));
      run.created.authors.add(author);
      run.created.tags.add(tag);
      run.created.articles.add(article);
      await cluster.db.collection<RawDoc>('articles').updateOne({ _id: article }, { $set: { category: 99_999 } });
      await cluster.db.collection<RawDoc>('tags').deleteOne({ _id: tag });
      await cluster.db.collection<RawDoc>('authors').deleteOne({ _id: author });
      const problems = await checkInvariants(cluster, run);
      expect(problems).to.include(`stored articles ${article}.category -> 99999, missing`);
      expect(problems).to.include(`tags ${tag}: created (200), never deleted, missing`);
      expect(problems).to.include(`stored articles ${article}.author -> ${author}, missing`);
    });
  });
}

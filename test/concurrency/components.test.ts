// Parallel updates of one entry's components over HTTP, on one and on two instances: updates that
// keep a component by id are computed from what they read and compare the entry's revision, so
// two requests changing different fields of one component both land, and so do parallel changes
// of a component list, a dynamic zone and the entry's own attributes; component ids stay unique.
import { expect } from 'chai';
import { createMany, startCluster, statuses, type Cluster } from './helpers.js';

interface Stored {
  title: string;
  seo: { id: number; metaTitle: string; metaDescription: string };
  links: Array<{ id: number; label: string }>;
  blocks: Array<{ id: number; __component: string; text: string }>;
}

for (const instances of [1, 2]) {
  describe(`concurrent component updates (${instances} service instance${instances > 1 ? 's' : ''})`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    before(async () => {
      cluster = await startCluster(instances);
    });
    after(() => cluster.close());

    it('changes of two fields of one component, a list, a dynamic zone and a scalar in parallel all land', async () => {
      const seen = new Set<number>();
      for (let round = 0; round < 4; round++) {
        const [id] = await createMany(cluster, 'articles', 1, () => ({
          title: 'components',
          seo: { metaTitle: 'before' },
          links: [{ label: 'kept', url: 'https://kept.example' }],
        }));
        const [created] = (await cluster.docs('articles', { _id: id })) as unknown as Stored[];
        const seo = created!.seo.id;
        const link = created!.links[0]!.id;
        const description = `described in round ${round}`.padEnd(55, '.');
        const answers = await Promise.all([
          cluster.put(0, `/api/articles/${id}`, { data: { seo: { id: seo, metaTitle: `title ${round}` } } }),
          cluster.put(1, `/api/articles/${id}`, { data: { seo: { id: seo, metaDescription: description } } }),
          cluster.put(2, `/api/articles/${id}`, {
            data: {
              links: [
                { id: link, label: 'relabelled' },
                { label: 'added', url: 'https://added.example' },
              ],
            },
          }),
          cluster.put(3, `/api/articles/${id}`, {
            data: { blocks: [{ __component: 'blocks.quote', text: 'quoted' }] },
          }),
          cluster.put(4, `/api/articles/${id}`, { data: { title: 'renamed' } }),
        ]);
        expect(statuses(answers)).to.deep.equal({ 200: 5 });
        const [stored] = (await cluster.docs('articles', { _id: id })) as unknown as Stored[];
        expect(stored!.title).to.equal('renamed');
        expect(stored!.seo).to.include({ id: seo, metaTitle: `title ${round}`, metaDescription: description });
        expect(stored!.links.map((l) => l.label)).to.deep.equal(['relabelled', 'added']);
        expect(stored!.links[0]!.id).to.equal(link);
        expect(stored!.blocks.map((b) => [b.__component, b.text])).to.deep.equal([['blocks.quote', 'quoted']]);
        for (const componentId of stored!.links.map((l) => l.id)) {
          expect(seen.has(componentId), `link ${componentId} once`).to.equal(false);
          seen.add(componentId);
        }
      }
    });

    it('component edits racing the delete of their entry answer 200 or 404 and never bring the entry back', async () => {
      for (let round = 0; round < 8; round++) {
        const [id] = await createMany(cluster, 'articles', 1, () => ({
          title: 'edited while deleted',
          seo: { metaTitle: 'before' },
          links: [{ label: 'kept', url: 'https://kept.example' }],
        }));
        const [created] = (await cluster.docs('articles', { _id: id })) as unknown as Stored[];
        const edits = [
          { seo: { id: created!.seo.id, metaTitle: `after ${round}` } },
          {
            links: [
              { id: created!.links[0]!.id, label: 'relabelled' },
              { label: 'added', url: 'https://added.example' },
            ],
          },
          { blocks: [{ __component: 'blocks.quote', text: 'quoted' }] },
        ];
        // the delete starts a little later each round, so it lands before, between and after the edits
        const [deleted, ...answers] = await Promise.all([
          new Promise((resolve) => setTimeout(resolve, round * 3)).then(() =>
            cluster.del(round, `/api/articles/${id}`),
          ),
          ...edits.map((data, i) => cluster.put(round + i + 1, `/api/articles/${id}`, { data })),
        ]);
        expect(deleted.status).to.equal(200);
        for (const answer of answers) expect([200, 404], JSON.stringify(answer.body)).to.include(answer.status);
        expect(await cluster.docs('articles', { _id: id })).to.deep.equal([]);
      }
    });
  });
}

// Parallel deletes of one entry, and writes racing a delete, over HTTP on one and on two service
// instances: one delete removes the entry, answers it and sends its `entry.delete`; the others
// answer 404 as if it had never been there; no update brings a deleted entry back.
import { expect } from 'chai';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { createMany, range, startCluster, statuses, type Cluster } from './helpers.js';

for (const instances of [1, 2]) {
  describe(`parallel deletes of one entry (${instances} service instance${instances > 1 ? 's' : ''} on one database)`, function () {
    this.timeout(60_000);
    let cluster: Cluster;
    let receiver: WebhookReceiver;
    before(async () => {
      cluster = await startCluster(instances);
      receiver = await startWebhookReceiver();
      const hook = await cluster.post(0, '/admin/webhooks', {
        name: 'deletes',
        url: receiver.url('/deletes'),
        headers: {},
        events: ['entry.delete'],
      });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    });
    after(async () => {
      await cluster.close();
      await receiver.close();
    });

    it('10 parallel DELETEs: one answers the entry (one entry.delete), nine answer 404', async () => {
      const [id] = await createMany(cluster, 'articles', 1, () => ({ title: 'deleted once' }));
      const answers = await Promise.all(range(0, 9).map((i) => cluster.del(i, `/api/articles/${id}`)));
      expect(statuses(answers)).to.deep.equal({ 200: 1, 404: 9 });
      expect(answers.find((a) => a.status === 200)?.body.data).to.include({ id });
      for (const answer of answers.filter((a) => a.status === 404))
        expect(answer.body.error).to.include({ status: 404, name: 'NotFoundError' });
      await receiver.waitFor('/deletes', 'entry.delete', 1);
      // the events of the losers would have been queued with the winner's: every queued one posted
      await Promise.all(cluster.services.map((service) => service.webhooks.idle()));
      const events = receiver.callsTo('/deletes', 'entry.delete').filter((c) => {
        const entry = c.body.entry as { id: number; title: string };
        return entry.id === id && entry.title === 'deleted once';
      });
      expect(events).to.have.length(1);
    });

    it('6 parallel GraphQL deleteArticle: one answers the entry, the others null', async () => {
      const [id] = await createMany(cluster, 'articles', 1, () => ({ title: 'deleted by GraphQL' }));
      const answers = await Promise.all(
        range(0, 5).map((i) =>
          cluster.post(i, '/graphql', {
            query: `mutation { deleteArticle(id: ${id}) { data { id attributes { title } } } }`,
          }),
        ),
      );
      const data = answers.map(
        (a) => (a.body as { data: { deleteArticle: { data: unknown } } }).data.deleteArticle.data,
      );
      expect(data.filter((d) => d !== null)).to.deep.equal([
        { id: String(id), attributes: { title: 'deleted by GraphQL' } },
      ]);
    });

    it('parallel DELETE /api/users/:id: one 200, the others 404', async () => {
      const user = await cluster.post(0, '/api/users', {
        username: `leaving${instances}`,
        email: `leaving${instances}@example.org`,
        password: 'Password123!',
        role: 1,
      });
      expect(user.status, JSON.stringify(user.body)).to.equal(201);
      const answers = await Promise.all(range(0, 5).map((i) => cluster.del(i, `/api/users/${user.body.id}`)));
      expect(statuses(answers)).to.deep.equal({ 200: 1, 404: 5 });
      expect(await cluster.docs('up_users', { _id: user.body.id })).to.have.length(0);
    });

    it('updates racing a delete (scalars, components, relations from both sides, publication) never bring it back', async () => {
      const [tag] = await createMany(cluster, 'tags', 1, () => ({
        name: `racing ${instances}`,
        slug: `racing-${instances}`,
      }));
      const [author] = await createMany(cluster, 'authors', 1, () => ({ name: 'racing author' }));
      const answered: number[] = [];
      for (let round = 0; round < 5; round++) {
        const [id] = await createMany(cluster, 'articles', 1, () => ({
          title: 'doomed',
          links: [{ label: 'kept', url: 'https://kept.example' }],
        }));
        const updates = [
          { title: 'renamed' },
          { publishedAt: null },
          { links: [{ label: 'new', url: 'https://new.example' }], seo: { metaTitle: 'racing' } },
          { tags: { connect: [{ id: tag, position: { start: true } }] } },
          { author },
        ];
        const answers = await Promise.all([
          cluster.del(round, `/api/articles/${id}`),
          ...updates.map((data, i) => cluster.put(i, `/api/articles/${id}`, { data })),
          cluster.put(round + 1, `/api/tags/${tag}`, {
            data: { articles: { connect: [{ id, position: { start: true } }] } },
          }),
          cluster.put(round, `/api/authors/${author}`, { data: { articles: { connect: [id] } } }),
        ]);
        expect(answers[0]?.status).to.equal(200);
        for (const answer of answers.slice(1))
          expect([200, 400, 404], JSON.stringify(answer.body)).to.include(answer.status);
        answered.push(...answers.map((a) => a.status));
        expect(await cluster.docs('articles', { _id: id }), `round ${round}`).to.deep.equal([]);
      }
      expect(answered).to.include(404);
    });
  });
}

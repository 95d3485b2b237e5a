// renameCollection, collStats and $collStats through the driver, to mongod's documented answers
// (what mongosh's `db.coll.renameCollection()` and `db.coll.stats()` send).
import { expect } from 'chai';
import type { Document } from 'mongodb';
import { type AnyDoc, serverError, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: rename and collection statistics', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('admin');
  });
  after(async () => {
    await server.stop();
  });

  it('renames a collection with its documents and indexes', async () => {
    const drafts = server.db.collection<AnyDoc>('drafts');
    await drafts.insertMany([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ]);
    await drafts.createIndex({ slug: 1 }, { unique: true });
    await drafts.rename('posts');
    const posts = server.db.collection<AnyDoc>('posts');
    expect(await posts.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
      { _id: 1, slug: 'a' },
      { _id: 2, slug: 'b' },
    ]);
    expect((await posts.indexes()).map((ix) => ix.name)).to.deep.equal(['_id_', 'slug_1']);
    expect((await serverError(posts.insertOne({ _id: 3, slug: 'a' }))).code).to.equal(11000);
    const names = (await server.db.listCollections().toArray()).map((c) => c.name);
    expect(names).to.include('posts').and.not.include('drafts');
  });

  it('refuses a missing source, an existing target without dropTarget, and a rename to itself', async () => {
    const missing = await serverError(server.db.renameCollection('never', 'other'));
    expect(missing.code).to.equal(26);
    await server.db.collection<AnyDoc>('taken').insertOne({ _id: 1 });
    const exists = await serverError(server.db.renameCollection('posts', 'taken'));
    expect(exists.code).to.equal(48);
    expect(await server.db.collection('taken').countDocuments({})).to.equal(1);
    await server.db.renameCollection('posts', 'taken', { dropTarget: true });
    expect(await server.db.collection('taken').countDocuments({})).to.equal(2);
    const admin = server.client.db('admin');
    const ns = `${server.db.databaseName}.taken`;
    expect((await serverError(admin.command({ renameCollection: ns, to: ns }))).code).to.be.oneOf([20, 48]);
  });

  it('renames across databases', async () => {
    const other = server.client.db(`${server.db.databaseName}_other`);
    try {
      await server.client.db('admin').command({
        renameCollection: `${server.db.databaseName}.taken`,
        to: `${other.databaseName}.moved`,
      });
      expect(await other.collection('moved').countDocuments({})).to.equal(2);
      expect(await server.db.collection('taken').countDocuments({})).to.equal(0);
    } finally {
      await other.dropDatabase();
    }
  });

  it('$collStats: storageStats and count', async () => {
    const stats = server.db.collection<AnyDoc>('stats');
    await stats.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, body: 'x'.repeat(100) })));
    await stats.createIndex({ body: 1 });
    const [doc] = await stats.aggregate<Document>([{ $collStats: { storageStats: {}, count: {} } }]).toArray();
    expect(doc.ns).to.equal(`${server.db.databaseName}.stats`);
    expect(doc.count).to.equal(10);
    const storage = doc.storageStats as Document;
    expect(storage.count).to.equal(10);
    expect(storage.nindexes).to.equal(2);
    expect(storage.size).to.be.at.least(10 * 100);
    expect(storage.avgObjSize).to.be.at.least(100);
    expect(Object.keys(storage.indexSizes as Document)).to.have.members(['_id_', 'body_1']);
    expect(storage.totalIndexSize).to.be.a('number');
    const scaled = await stats.aggregate<Document>([{ $collStats: { storageStats: { scale: 1024 } } }]).toArray();
    expect((scaled[0]?.storageStats as Document).scaleFactor).to.equal(1024);
    const later = await serverError(stats.aggregate([{ $match: {} }, { $collStats: { count: {} } }]).toArray());
    expect(later.code).to.equal(40602);
    const missing = await serverError(
      server.db
        .collection('none')
        .aggregate([{ $collStats: { storageStats: {} } }])
        .toArray(),
    );
    expect(missing.code).to.equal(26);
  });

  it('$indexStats: every index with its accesses', async () => {
    const stats = server.db.collection<AnyDoc>('stats');
    await stats.find({ body: 'x' }).toArray();
    const docs = await stats.aggregate<Document>([{ $indexStats: {} }]).toArray();
    expect(docs.map((d) => d.name)).to.have.members(['_id_', 'body_1']);
    const body = docs.find((d) => d.name === 'body_1') as Document;
    expect(body.key).to.deep.equal({ body: 1 });
    expect(Number(body.accesses.ops)).to.be.at.least(1);
    expect(body.accesses.since).to.be.instanceOf(Date);
    expect(body.spec).to.include({ name: 'body_1' });
  });

  it('collStats command: count, size and indexes', async () => {
    const reply = await server.db.command({ collStats: 'stats' });
    expect(reply).to.include({ ns: `${server.db.databaseName}.stats`, count: 10, nindexes: 2 });
    expect(reply.size).to.be.at.least(1000);
  });
});

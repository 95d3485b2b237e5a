import { expect } from 'chai';
import { type AnyDoc, serverError, startTestServer, type TestServer } from './helpers/server.js';

describe('engine: collections and indexes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('collections');
  });
  after(async () => {
    await server.stop();
  });

  it('create is idempotent with the same options and 48 NamespaceExists otherwise', async () => {
    await server.db.createCollection('c1');
    expect((await server.db.command({ create: 'c1' })).ok).to.equal(1);
    const err = await serverError(server.db.command({ create: 'c1', capped: true, size: 4096 }));
    expect(err.code).to.equal(48);
  });

  it('lists collections and databases, drops collections and databases', async () => {
    await server.db.collection<AnyDoc>('c2').insertOne({ a: 1 });
    const names = (await server.db.listCollections().toArray()).map((c) => c.name);
    expect(names).to.include.members(['c1', 'c2']);
    const filtered = await server.db.listCollections({ name: 'c2' }).toArray();
    expect(filtered.map((c) => c.name)).to.deep.equal(['c2']);
    expect(filtered[0].type).to.equal('collection');
    const dbs = await server.client.db('admin').admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).to.include(server.db.databaseName);
    expect(await server.db.collection<AnyDoc>('c2').drop()).to.equal(true);
    expect((await server.db.command({ drop: 'never-existed' })).ok).to.equal(1);
    const other = server.client.db(`${server.db.databaseName}_x`);
    await other.collection<AnyDoc>('a').insertOne({ x: 1 });
    expect(await other.dropDatabase()).to.equal(true);
    expect((await server.client.db('admin').admin().listDatabases()).databases.map((d) => d.name)).not.to.include(
      other.databaseName,
    );
  });

  it('creates, lists and drops indexes', async () => {
    const c = server.db.collection<AnyDoc>('ix');
    await c.insertOne({ a: 1, b: 2 });
    expect(await c.createIndex({ a: 1 })).to.equal('a_1');
    expect(await c.createIndex({ a: 1, b: -1 }, { unique: true, name: 'ab' })).to.equal('ab');
    const again = await server.db.command({ createIndexes: 'ix', indexes: [{ key: { a: 1 }, name: 'a_1' }] });
    expect(again.numIndexesBefore).to.equal(again.numIndexesAfter);
    const list = await c.listIndexes().toArray();
    expect(list.map((i) => i.name)).to.deep.equal(['_id_', 'a_1', 'ab']);
    expect(list[2].unique).to.equal(true);
    expect(list[2].key).to.deep.equal({ a: 1, b: -1 });
    await c.dropIndex('a_1');
    expect((await c.listIndexes().toArray()).map((i) => i.name)).to.deep.equal(['_id_', 'ab']);
    expect((await serverError(c.dropIndex('nope'))).code).to.equal(27);
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((i) => i.name)).to.deep.equal(['_id_']);
  });

  it('listIndexes on a missing collection is 26 NamespaceNotFound', async () => {
    const err = await serverError(server.db.collection<AnyDoc>('missing').listIndexes().toArray());
    expect(err.code).to.equal(26);
  });
});

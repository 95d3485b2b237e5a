import { expect } from 'chai';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// Natural order (insertion order; a document deleted and inserted again goes last) once ids are no
// longer inserted ascending, as concurrent creates commit them. The engine keeps the positions of
// such a collection across inserts and removals instead of renumbering every document after each
// write (src/engine/storage/collection.ts); every read must still answer in natural order.
describe('engine: natural order of a collection whose ids are not ascending', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('natural-order');
  });
  after(async () => {
    await server.stop();
  });

  it('keeps insertion order through inserts, removals, replacements and re-inserts, also through an index', async () => {
    const coll = server.db.collection<AnyDoc>('entries');
    await coll.createIndex({ group: 1 });
    const order: number[] = [];
    const insert = async (id: number) => {
      await coll.insertOne({ _id: id, group: id % 3, v: 0 });
      order.push(id);
    };
    const remove = async (id: number) => {
      await coll.deleteOne({ _id: id });
      order.splice(order.indexOf(id), 1);
    };
    const check = async (step: string) => {
      // a scan in natural order
      expect(
        (await coll.find({}).toArray()).map((d) => d._id),
        step,
      ).to.deep.equal(order);
      if (!server.embedded) return; // mongod answers an index's matches in the index's order
      // matches found through the index, put in natural order by the engine
      for (const group of [0, 1, 2]) {
        const found = (await coll.find({ group, v: { $gte: 0 } }).toArray()).map((d) => d._id);
        expect(found, `${step}, group ${group}`).to.deep.equal(order.filter((id) => id % 3 === group));
      }
    };
    for (const id of [5, 3, 9, 1, 7]) await insert(id);
    await check('inserted out of order');
    await remove(3);
    await check('after a removal');
    await insert(2);
    await insert(3);
    await check('after re-inserting a removed id');
    await coll.replaceOne({ _id: 9 }, { group: 0, v: 1 });
    await coll.updateOne({ _id: 1 }, { $set: { v: 2 } });
    await check('after a replacement and an update');
    for (let i = 0; i < 40; i++) {
      const id = 100 + ((i * 37) % 41);
      if (order.includes(id)) await remove(id);
      else await insert(id);
      if (i % 2 === 1) await remove(order[Math.floor(order.length / 2)] as number);
      await check(`step ${i}`);
    }
  });
});

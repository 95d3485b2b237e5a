import { expect } from 'chai';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// Plain 0/1 projections are applied by the engine itself (not mingo): pin down MongoDB's rules.
describe('engine: inclusion and exclusion projections', () => {
  let server: TestServer;
  const doc = { _id: 1, b: 2, a: { x: 1, y: 2 }, list: [{ x: 1, y: 2 }, 3, { y: 4 }], s: 'v' };
  before(async () => {
    server = await startTestServer('projection');
    await server.db.collection<AnyDoc>('p').insertOne(doc);
  });
  after(async () => {
    await server.stop();
  });

  const viaFind = (projection: AnyDoc) => server.db.collection<AnyDoc>('p').findOne({ _id: 1 }, { projection });
  const viaProject = async (projection: AnyDoc) =>
    (
      await server.db
        .collection<AnyDoc>('p')
        .aggregate([{ $project: projection }])
        .toArray()
    )[0];

  for (const [name, run] of [
    ['find', viaFind],
    ['$project', viaProject],
  ] as const) {
    it(`${name}: inclusion keeps _id first and the document's field order, dotted paths inside documents and arrays`, async () => {
      expect(JSON.stringify(await run({ s: 1, b: true }))).to.equal(JSON.stringify({ _id: 1, b: 2, s: 'v' }));
      expect(await run({ 'a.y': 1, 'list.x': 1 })).to.deep.equal({ _id: 1, a: { y: 2 }, list: [{ x: 1 }, {}] });
      expect(await run({ _id: 0, s: 1 })).to.deep.equal({ s: 'v' });
      expect(await run({ _id: 1 })).to.deep.equal({ _id: 1 });
      expect(await run({ missing: 1 })).to.deep.equal({ _id: 1 });
    });

    it(`${name}: fields named as Object's own properties are fields like any other`, async () => {
      const odd = { _id: 2, constructor: { name: 'kept?' }, toString: { length: 3 }, s: 'v' };
      await server.db.collection<AnyDoc>('p').insertOne(odd);
      try {
        const one = async (projection: AnyDoc) =>
          name === 'find'
            ? server.db.collection<AnyDoc>('p').findOne({ _id: 2 }, { projection })
            : (
                await server.db
                  .collection<AnyDoc>('p')
                  .aggregate([{ $match: { _id: 2 } }, { $project: projection }])
                  .toArray()
              )[0];
        expect(await one({ s: 1 })).to.deep.equal({ _id: 2, s: 'v' });
        expect(await one({ 'constructor.name': 1 })).to.deep.equal({ _id: 2, constructor: { name: 'kept?' } });
      } finally {
        await server.db.collection<AnyDoc>('p').deleteOne({ _id: 2 });
      }
    });

    it(`${name}: exclusion removes fields, also inside documents and arrays`, async () => {
      expect(await run({ b: 0, s: false })).to.deep.equal({
        _id: 1,
        a: { x: 1, y: 2 },
        list: [{ x: 1, y: 2 }, 3, { y: 4 }],
      });
      expect(await run({ 'a.x': 0, 'list.y': 0, _id: 0 })).to.deep.equal({
        b: 2,
        a: { y: 2 },
        list: [{ x: 1 }, 3, {}],
        s: 'v',
      });
    });

    it(`${name}: mixing inclusion and exclusion is an error, as in MongoDB`, async () => {
      let error: unknown;
      try {
        await run({ b: 1, s: 0 });
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(Error);
    });
  }

  it('never changes the stored document', async () => {
    await viaProject({ 'a.x': 0 });
    expect(await server.db.collection<AnyDoc>('p').findOne({ _id: 1 })).to.deep.equal(doc);
  });
});

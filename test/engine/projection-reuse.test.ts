import { expect } from 'chai';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

// The engine compiles a `0/1` projection once and reuses it for later commands sending the same
// one (a service sends the same few in every read): these tests pin down that answers are those of
// a projection compiled for each command.
describe('engine: projections reused across commands', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('projection-reuse');
    await server.db.collection<AnyDoc>('items').insertMany([
      { _id: 1, a: 1, b: { c: 2, d: 3 }, e: [{ c: 4, d: 5 }, 6] },
      { _id: 2, a: 7, b: { c: 8 }, e: [] },
    ]);
  });
  after(async () => {
    await server.stop();
  });

  const project = (spec: Record<string, unknown>) =>
    server.db
      .collection<AnyDoc>('items')
      .aggregate([{ $sort: { _id: 1 } }, { $project: spec }])
      .toArray();

  it('the same specification gives the same answer in every command, on whatever documents it meets', async () => {
    const inclusion = { a: 1, 'b.c': 1, 'e.d': 1 };
    const expected = [
      { _id: 1, a: 1, b: { c: 2 }, e: [{ d: 5 }] },
      { _id: 2, a: 7, b: { c: 8 }, e: [] },
    ];
    expect(await project(inclusion)).to.deep.equal(expected);
    expect(await project({ ...inclusion })).to.deep.equal(expected);
    await server.db.collection<AnyDoc>('items').updateOne({ _id: 2 }, { $set: { a: 9, e: [{ d: 1, c: 0 }] } });
    expect(await project({ a: 1, 'b.c': 1, 'e.d': 1 })).to.deep.equal([
      expected[0],
      { _id: 2, a: 9, b: { c: 8 }, e: [{ d: 1 }] },
    ]);
  });

  it('specifications with the same paths and other values (or order) are not confused', async () => {
    expect(await project({ a: 1, _id: 0 })).to.deep.equal([{ a: 1 }, { a: 9 }]);
    expect(await project({ a: 1, _id: 1 })).to.deep.equal([
      { _id: 1, a: 1 },
      { _id: 2, a: 9 },
    ]);
    expect(await project({ a: 0, b: 0, e: 0 })).to.deep.equal([{ _id: 1 }, { _id: 2 }]);
    expect(await project({ a: false, b: false, e: false, _id: false })).to.deep.equal([{}, {}]);
    expect(await project({ b: true, a: true })).to.deep.equal([
      { _id: 1, a: 1, b: { c: 2, d: 3 } },
      { _id: 2, a: 9, b: { c: 8 } },
    ]);
  });
});

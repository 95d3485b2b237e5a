// Field order of every stage's output, as mongod produces it (MongoDB's documented behaviour:
// inclusion projections keep `_id` first and the input document's order, computed fields come
// after in spec order; $addFields/$set overwrite in place and append new fields; $group puts
// `_id` first; $lookup appends `as`; $unwind keeps the field's place). Compared on the key order,
// recursively, so that it also holds against a real mongod (MONGODB_URI).
import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

/** A document's shape: its keys in order, embedded documents' recursively. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.some((x) => shape(x) !== '.') ? v.map(shape) : '.';
  if (!v || typeof v !== 'object' || '_bsontype' in v || v instanceof Date) return '.';
  return Object.entries(v as Document).map(([k, x]) => (shape(x) === '.' ? k : { [k]: shape(x) }));
}

describe('engine: field order of stages and projections', () => {
  let server: TestServer;
  let c: Collection<AnyDoc>;
  before(async () => {
    server = await startTestServer('field_order');
    c = server.db.collection<AnyDoc>('docs');
    await c.insertOne({ _id: 1, a: 1, t: 'x', b: { c: 1, d: 2 }, arr: [1, 2] });
    await server.db.collection<AnyDoc>('other').insertOne({ _id: 7, ref: 1 });
  });
  after(async () => {
    await server.stop();
  });

  async function first(pipeline: Document[]): Promise<unknown> {
    const [doc] = await c.aggregate(pipeline).toArray();
    return shape(doc);
  }

  const cases: Array<[string, Document[], unknown]> = [
    ['$project inclusion + computed', [{ $project: { t: 1, n: { $add: ['$a', 1] } } }], ['_id', 't', 'n']],
    ['$project computed first in the spec', [{ $project: { n: { $add: ['$a', 1] }, t: 1 } }], ['_id', 't', 'n']],
    ['$project _id last in the spec', [{ $project: { n: '$a', t: 1, _id: 1 } }], ['_id', 't', 'n']],
    [
      '$project kept fields in document order',
      [{ $project: { b: 1, t: 1, a: 1 } }],
      ['_id', 'a', 't', { b: ['c', 'd'] }],
    ],
    [
      '$project dotted paths: kept in document order, computed after',
      [{ $project: { 'b.e': 'lit', 'b.d': 1, t: 1 } }],
      ['_id', 't', { b: ['d', 'e'] }],
    ],
    [
      '$project nested sub-projection',
      [{ $project: { b: { e: { $literal: 5 }, d: 1, c: 1 } } }],
      ['_id', { b: ['c', 'd', 'e'] }],
    ],
    ['$project _id excluded', [{ $project: { _id: 0, n: '$a', t: 1 } }], ['t', 'n']],
    ['$project exclusion keeps document order', [{ $project: { t: 0 } }], ['_id', 'a', { b: ['c', 'd'] }, 'arr']],
    [
      '$addFields overwrites in place and appends new fields',
      [{ $addFields: { z: 1, a: 5, 'b.e': 1, 'b.c': 9 } }],
      ['_id', 'a', 't', { b: ['c', 'd', 'e'] }, 'arr', 'z'],
    ],
    ['$set', [{ $set: { new1: 1, t: '$a' } }], ['_id', 'a', 't', { b: ['c', 'd'] }, 'arr', 'new1']],
    ['$unset keeps document order', [{ $unset: ['a', 'b.c'] }], ['_id', 't', { b: ['d'] }, 'arr']],
    [
      '$unwind keeps the field in place',
      [{ $unwind: '$arr' }, { $limit: 1 }],
      ['_id', 'a', 't', { b: ['c', 'd'] }, 'arr'],
    ],
    [
      '$group: _id first, accumulators in spec order',
      [{ $group: { _id: '$t', s: { $sum: 1 }, f: { $first: '$a' } } }],
      ['_id', 's', 'f'],
    ],
    ['$replaceWith: the expression order', [{ $replaceWith: { y: 1, x: '$a' } }], ['y', 'x']],
    [
      '$lookup appends the as field',
      [{ $lookup: { from: 'other', localField: '_id', foreignField: 'ref', as: 'refs' } }],
      ['_id', 'a', 't', { b: ['c', 'd'] }, 'arr', { refs: [['_id', 'ref']] }],
    ],
  ];
  for (const [name, pipeline, expected] of cases) {
    it(name, async () => {
      expect(await first(pipeline)).to.deep.equal(expected);
    });
  }

  it('$addFields into embedded documents: nested form, arrays, non-documents, missing values', async () => {
    const rows = server.db.collection<AnyDoc>('nested');
    await rows.insertOne({ _id: 1, s: 5, list: [{ p: 1 }, 7], d: { e: 1 } });
    const [doc] = await rows
      .aggregate([{ $addFields: { d: { f: '$s' }, 'list.x': 1, 's.y': 2, gone: '$nothing', z: {} } }])
      .toArray();
    expect(doc).to.deep.equal({
      _id: 1,
      s: { y: 2 },
      list: [{ p: 1, x: 1 }, { x: 1 }],
      d: { e: 1, f: 5 },
      z: {},
    });
    expect(await rows.findOne({ _id: 1 })).to.deep.equal({ _id: 1, s: 5, list: [{ p: 1 }, 7], d: { e: 1 } });
  });

  it('find projections: plain and computed', async () => {
    const plain = await c.findOne({}, { projection: { b: 1, t: 1 } });
    expect(shape(plain)).to.deep.equal(['_id', 't', { b: ['c', 'd'] }]);
    const computed = await c.findOne({}, { projection: { n: { $add: ['$a', 1] }, t: 1 } });
    expect(shape(computed)).to.deep.equal(['_id', 't', 'n']);
  });
});

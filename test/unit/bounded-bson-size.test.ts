import { expect } from 'chai';
import { BSON, Binary, Decimal128, Long, ObjectId, Timestamp } from 'bson';
import { boundedBsonSize } from '../../src/engine/bson/bounded-size.js';

describe('engine: the bounded BSON size of a result document', () => {
  it('is the serializer’s size below the limit, for every kind of value', () => {
    const docs = [
      {},
      { a: 1, b: 2.5, c: 'x', d: null, e: true, f: undefined },
      { ключ: 'значение', '': [1, 'two', { three: 3 }], nested: { deeper: { deepest: [[], {}] } } },
      {
        date: new Date(0),
        long: Long.fromNumber(2 ** 40),
        id: new ObjectId('65a1b2c3d4e5f60718293a4b'),
        bin: new Binary(Buffer.from('bytes')),
        dec: Decimal128.fromString('1.5'),
        ts: new Timestamp({ t: 1, i: 2 }),
        re: /a.b/i,
      },
      { list: Array.from({ length: 300 }, (_, i) => ({ i, s: 'é'.repeat(i % 7) })) },
    ];
    for (const doc of docs)
      expect(boundedBsonSize(doc, 16 * 1024 * 1024), JSON.stringify(doc)).to.equal(BSON.calculateObjectSize(doc));
  });

  it('counts a shared array at every place it is, and stops past the limit', () => {
    const leaf = Array.from({ length: 40 }, (_, i) => ({ _id: i, title: `node ${i}` }));
    let level: unknown[] = leaf;
    for (let depth = 0; depth < 6; depth++) level = Array.from({ length: 40 }, (_, i) => ({ _id: i, links: level }));
    const small = { links: leaf, again: leaf };
    expect(boundedBsonSize(small, 16 * 1024 * 1024)).to.equal(BSON.calculateObjectSize(small));
    // 40^7 entries written out: far over the limit, found without writing them out
    const huge = { links: level };
    expect(boundedBsonSize(huge, 16 * 1024 * 1024)).to.be.greaterThan(16 * 1024 * 1024);
  });
});

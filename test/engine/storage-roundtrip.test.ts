import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Binary,
  BSON,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  ObjectId,
  Timestamp,
  UUID,
  type Document,
} from 'mongodb';
import { startEngine } from '../../src/engine/index.js';
import type { AnyDoc } from './helpers/server.js';
import { decodeBatch, encodeBatch } from '../../src/engine/storage/document-batch.js';
import { decodeBody, encodeRecord, RECORD_HEAD_BYTES } from '../../src/engine/storage/records.js';

/** One document per kind of value the engine stores, each field of every BSON type it keeps. */
function documents(): Document[] {
  const when = new Date(Date.UTC(2024, 4, 1, 12));
  return [
    {
      _id: 1,
      int: new Int32(7),
      long: Long.fromString('9007199254740993'),
      smallLong: Long.fromNumber(5),
      double: new Double(2.5),
      wholeDouble: new Double(3),
      negativeZero: new Double(-0),
      nan: new Double(Number.NaN),
      inf: new Double(Number.POSITIVE_INFINITY),
      minusInf: new Double(Number.NEGATIVE_INFINITY),
      decimal: Decimal128.fromString('1234.5678900000000001'),
      decimalNegZero: Decimal128.fromString('-0'),
      string: 'héllo wörld ✓ 𝄞',
      empty: '',
      null: null,
      undefinedValue: undefined,
      bool: false,
      oid: new ObjectId('65f0a1b2c3d4e5f607182930'),
      before1970: new Date(-86_400_000 * 365 * 30 - 123),
      createdAt: when,
      updatedAt: new Date(when.getTime()),
      binary: new Binary(Buffer.from([0, 1, 2, 255]), 0),
      oldBinary: new Binary(Buffer.from('xyz'), 2),
      uuid: new UUID('9f0c7b4e-1b1e-4f5a-9a55-0d1f2b3c4d5e'),
      md5: new Binary(Buffer.alloc(16, 7), 5),
      userBinary: new Binary(Buffer.from('u'), 0x80),
      regex: new BSONRegExp('^a.c$', 'im'),
      timestamp: new Timestamp({ t: 1700000000, i: 3 }),
      minKey: new MinKey(),
      maxKey: new MaxKey(),
      code: new Code('function () { return 1; }'),
      symbol: new BSONSymbol('sym'),
      nested: { z: 1, a: { deep: [1, [2, [3, new Date(0)]], { x: new Double(-0) }] }, m: null },
      array: [new Int32(1), 'two', [new Long(3)], { four: 4 }, null, [], {}],
      emptyDoc: {},
      'dotted.key': 1,
    },
    {
      _id: 'string id',
      order: { b: 2, a: 1 },
      same: [when, when, new Date(when.getTime())],
      // strings repeated across documents and within one (shared by the batch decoding)
      repeated: ['blocks.quote', 'blocks.quote', { in: 'a longer repeated string, ünïcode ✓' }],
      ['__proto__']: 'blocks.quote',
    },
    {
      _id: new ObjectId('65f0a1b2c3d4e5f607182931'),
      v: Decimal128.fromString('NaN'),
      kind: 'blocks.quote',
      text: 'a longer repeated string, ünïcode ✓',
    },
    { _id: Long.fromString('12345678901234'), v: new Double(1e300) },
    { _id: { compound: 1, key: 'k' }, v: [] },
  ];
}

/**
 * Every document read back after a restart from a snapshot (JSON batches plus the values JSON
 * cannot carry) and from a journal, compared as the bytes the engine replies with.
 */
describe('engine: stored documents round-trip through snapshot and journal unchanged', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-roundtrip-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function rawDocs(client: MongoClient, coll: string): Promise<Buffer[]> {
    const docs = await client
      .db('rt')
      .collection(coll)
      .find({}, { raw: true, sort: { _id: 1 } })
      .toArray();
    return docs.map((d) => Buffer.from(d as unknown as Uint8Array));
  }

  async function readBack(compactAtBytes: number, expectSnapshotDocs: boolean): Promise<void> {
    let engine = await startEngine({ dataDir: dir, compactAtBytes });
    let client = await MongoClient.connect(engine.uri);
    await client.db('rt').collection('all').insertMany(documents());
    const before = await rawDocs(client, 'all');
    // with compactAtBytes 1 the next command finds a compaction due and runs it in the background
    await client.db('rt').command({ ping: 1 });
    for (let i = 0; i < 100 && expectSnapshotDocs && !existsSync(join(dir, 'snapshot.bson')); i++)
      await new Promise((r) => setTimeout(r, 20));
    await client.close();
    await engine.stop();
    expect(existsSync(join(dir, 'snapshot.bson'))).to.equal(expectSnapshotDocs);
    engine = await startEngine({ dataDir: dir });
    client = await MongoClient.connect(engine.uri);
    try {
      const after = await rawDocs(client, 'all');
      expect(after.map((b) => b.toString('hex'))).to.deep.equal(before.map((b) => b.toString('hex')));
      // and what the driver makes of them: types, field order, -0 and NaN included
      const decoded = after.map((b) => BSON.deserialize(b, { promoteValues: false }));
      expect(decoded[0]).to.have.property('negativeZero');
      expect(Object.is((decoded[0].negativeZero as Double).value, -0)).to.equal(true);
      expect(Object.keys(decoded.find((d) => d._id === 'string id')?.order ?? {})).to.deep.equal(['b', 'a']);
    } finally {
      await client.close();
      await engine.stop();
    }
  }

  it('from a snapshot', async () => {
    await readBack(1, true);
    expect(readdirSync(dir).filter((f) => f.startsWith('snapshot'))).to.deep.equal(['snapshot.bson']);
  });

  it('from a journal', async () => {
    await readBack(64 * 1024 * 1024, false);
  });

  it('keeps equal dates independent: updating one leaves the other as it was', async () => {
    let engine = await startEngine({ dataDir: dir, compactAtBytes: 1 });
    let client = await MongoClient.connect(engine.uri);
    const when = new Date(Date.UTC(2024, 0, 2));
    await client
      .db('rt')
      .collection<AnyDoc>('d')
      .insertMany([
        { _id: 1, createdAt: when, updatedAt: when, list: [when, when] },
        { _id: 2, createdAt: when },
      ]);
    await client.db('rt').command({ ping: 1 });
    await client.close();
    await engine.stop();
    engine = await startEngine({ dataDir: dir });
    client = await MongoClient.connect(engine.uri);
    try {
      const c = client.db('rt').collection<AnyDoc>('d');
      await c.updateOne({ _id: 1 }, { $set: { updatedAt: new Date(0), 'list.1': new Date(1) } });
      await c.updateOne({ _id: 2 }, { $currentDate: { createdAt: true } });
      const [one, two] = await c.find({}, { sort: { _id: 1 } }).toArray();
      expect(one).to.deep.equal({ _id: 1, createdAt: when, updatedAt: new Date(0), list: [when, new Date(1)] });
      expect(two?.createdAt).to.be.instanceOf(Date);
      expect((two?.createdAt as Date).getTime()).to.not.equal(when.getTime());
      expect(await c.countDocuments({ createdAt: when })).to.equal(1);
    } finally {
      await client.close();
      await engine.stop();
    }
  });

  it('reads batches whose paths were written as a BSON array (snapshots of earlier versions)', () => {
    const docs = [{ _id: 1, at: new Date(5), n: -0, big: Long.fromString('9007199254740993') }];
    const batch = encodeBatch(docs);
    const old = { ...batch, paths: JSON.parse(batch.paths as string) as Array<Array<string | number>> };
    const encoded = encodeRecord({ op: 'docs', db: 'rt', coll: 'c', ...old });
    const decoded = decodeBody(encoded.subarray(RECORD_HEAD_BYTES));
    expect(decoded.op === 'docs' && Array.isArray(decoded.paths)).to.equal(true);
    if (decoded.op !== 'docs') return;
    expect(BSON.serialize(decodeBatch(decoded)[0] ?? {})).to.deep.equal(BSON.serialize(docs[0] ?? {}));
  });

  it('gives each decoded binary value bytes of its own, never a view of the record read', () => {
    const encoded = encodeRecord({
      op: 'put',
      db: 'rt',
      coll: 'c',
      doc: { _id: 1, b: new Binary(Buffer.alloc(3, 9), 0) },
    });
    const record = Buffer.from(new Uint8Array(encoded).buffer); // bytes of their own, as a chunk read from a file
    const decoded = decodeBody(record.subarray(RECORD_HEAD_BYTES));
    const binary = decoded.op === 'put' ? (decoded.doc.b as Binary) : undefined;
    expect(binary?.buffer.buffer).to.not.equal(record.buffer);
    expect([...(binary?.buffer ?? [])]).to.deep.equal([9, 9, 9]);
  });

  it('journals a command whose documents are too large for one batch record, and reads them back', async () => {
    let engine = await startEngine({ dataDir: dir });
    let client = await MongoClient.connect(engine.uri);
    const big = (n: number) => ({ _id: n, bytes: new Binary(Buffer.alloc(7 * 1024 * 1024, n), 0) });
    await client
      .db('rt')
      .collection<AnyDoc>('big')
      .insertMany([big(1), big(2), big(3)]);
    await client.close();
    await engine.stop();
    engine = await startEngine({ dataDir: dir });
    client = await MongoClient.connect(engine.uri);
    try {
      const docs = await client.db('rt').collection<AnyDoc>('big').find({}).sort({ _id: 1 }).toArray();
      expect(docs.map((d) => [d._id, (d.bytes as Binary).buffer.length, (d.bytes as Binary).buffer[5]])).to.deep.equal([
        [1, 7 * 1024 * 1024, 1],
        [2, 7 * 1024 * 1024, 2],
        [3, 7 * 1024 * 1024, 3],
      ]);
    } finally {
      await client.close();
      await engine.stop();
    }
  });
});

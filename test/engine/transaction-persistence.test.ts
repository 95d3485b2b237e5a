// Transactions on a persisted engine: a committed transaction is on disk as one group of journal
// records, replayed whole at start-up; an aborted one, or one open when the engine stops, leaves
// nothing; a group cut short by a crash (the process killed with its first records written, or
// a journal truncated inside the group) is dropped whole and cut off.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BSON, MongoClient } from 'mongodb';
import { startEngine, type EngineEvent } from '../../src/engine/index.js';
import type { AnyDoc } from './helpers/server.js';

const CHILD = fileURLToPath(new URL('./helpers/transaction-child.ts', import.meta.url));

describe('engine: transactions on disk', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-txn-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function withEngine<T>(fn: (client: MongoClient, events: EngineEvent[]) => Promise<T>): Promise<T> {
    const events: EngineEvent[] = [];
    const engine = await startEngine({ dataDir: dir, log: (e) => events.push(e) });
    const client = await MongoClient.connect(engine.uri);
    try {
      return await fn(client, events);
    } finally {
      await client.close();
      await engine.stop();
    }
  }

  const ids = async (client: MongoClient, name: string) =>
    (await client.db('d').collection<AnyDoc>(name).find().sort({ _id: 1 }).toArray()).map((d) => d._id);

  /** Commits one transaction of three records (two collections, one update) after a plain write. */
  async function commitGroup(client: MongoClient): Promise<void> {
    const db = client.db('d');
    await db.collection<AnyDoc>('a').insertOne({ _id: 1, x: 'plain' });
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await db.collection<AnyDoc>('a').insertOne({ _id: 2 }, { session });
        await db.collection<AnyDoc>('b').insertOne({ _id: 2 }, { session });
        await db.collection<AnyDoc>('a').updateOne({ _id: 1 }, { $set: { x: 'in transaction' } }, { session });
      });
    } finally {
      await session.endSession();
    }
  }

  /** Records of the journal as [offset, body]. */
  function journalRecords(): { file: string; records: Array<{ offset: number; length: number; body: AnyDoc }> } {
    const [file] = readdirSync(dir).filter((f) => /^journal\.\d+\.bson$/.test(f));
    if (!file) throw new Error('no journal');
    const buf = readFileSync(join(dir, file));
    const records = [];
    for (let at = 0; at < buf.length;) {
      const length = 8 + buf.readUInt32LE(at);
      records.push({ offset: at, length, body: BSON.deserialize(buf.subarray(at + 8, at + length)) as AnyDoc });
      at += length;
    }
    return { file: join(dir, file), records };
  }

  it('a committed transaction is one group of records, replayed at start-up', async () => {
    await withEngine(commitGroup);
    const { records } = journalRecords();
    const group = records.findIndex((r) => r.body.op === 'group');
    expect(records[group]?.body.records).to.equal(3);
    expect(records.slice(group + 1).map((r) => r.body.op)).to.deep.equal(['docs', 'docs', 'docs']);
    await withEngine(async (client) => {
      expect(await ids(client, 'a')).to.deep.equal([1, 2]);
      expect(await ids(client, 'b')).to.deep.equal([2]);
      expect((await client.db('d').collection<AnyDoc>('a').findOne({ _id: 1 }))?.x).to.equal('in transaction');
    });
  });

  it('an aborted transaction, and one open when the engine stops, leave nothing on disk', async () => {
    await withEngine(async (client) => {
      const db = client.db('d');
      await db.collection<AnyDoc>('a').insertOne({ _id: 1 });
      const aborted = client.startSession();
      aborted.startTransaction();
      await db.collection<AnyDoc>('a').insertOne({ _id: 2 }, { session: aborted });
      await db.collection<AnyDoc>('a').deleteOne({ _id: 1 }, { session: aborted });
      await aborted.abortTransaction();
      const open = client.startSession();
      open.startTransaction();
      await db.collection<AnyDoc>('a').insertOne({ _id: 3 }, { session: open });
      await db.collection<AnyDoc>('b').insertOne({ _id: 3 }, { session: open });
    });
    await withEngine(async (client) => {
      expect(await ids(client, 'a')).to.deep.equal([1]);
      expect(await ids(client, 'b')).to.deep.equal([]);
    });
  });

  for (const cut of ['at a record boundary', 'inside a record'] as const) {
    it(`a journal truncated inside a group (${cut}) loses the whole transaction, and takes writes after it`, async () => {
      await withEngine(commitGroup);
      const { file, records } = journalRecords();
      const group = records.findIndex((r) => r.body.op === 'group');
      const second = records[group + 2];
      if (!second) throw new Error('no group');
      truncateSync(file, cut === 'at a record boundary' ? second.offset : second.offset + 10);
      await withEngine(async (client, events) => {
        const torn = events.find((e) => e.event === 'recovery.torn-transaction');
        expect(torn?.details?.offset).to.equal(records[group]?.offset);
        expect(statSync(file).size).to.equal(records[group]?.offset);
        expect(await ids(client, 'a')).to.deep.equal([1]);
        expect(await ids(client, 'b')).to.deep.equal([]);
        expect((await client.db('d').collection<AnyDoc>('a').findOne({ _id: 1 }))?.x).to.equal('plain');
        await client.db('d').collection<AnyDoc>('b').insertOne({ _id: 5 });
      });
      await withEngine(async (client) => expect(await ids(client, 'b')).to.deep.equal([5]));
    });
  }

  it('a process killed with a group half written starts with every acknowledged write and nothing of that transaction', async () => {
    const { acked, signal } = await runChild(dir);
    expect(signal).to.equal('SIGKILL');
    expect(acked).to.deep.equal(['counter', 'a 0', 'a 1', 'a 2', 'a 3', 'a 4', 'b 0']);
    const { records } = journalRecords();
    expect(records.at(-2)?.body.op, 'the group head is on disk').to.equal('group');
    await withEngine(async (client, events) => {
      expect(events.some((e) => e.event === 'recovery.torn-transaction')).to.equal(true);
      const db = client.db('durable');
      expect((await db.collection<AnyDoc>('a').find().toArray()).map((d) => d._id)).to.deep.equal([0, 1, 2, 3, 4]);
      expect((await db.collection<AnyDoc>('b').find().toArray()).map((d) => d._id)).to.deep.equal([0]);
      expect((await db.collection<AnyDoc>('counters').findOne({ _id: 'n' as never }))?.n).to.equal(0);
    });
  });
});

function runChild(dir: string): Promise<{ acked: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ acked: out.split('\n').filter(Boolean), signal });
    });
  });
}

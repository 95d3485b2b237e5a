import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { COMPACTION_STEPS, startEngine, type EngineEvent, type EngineOptions } from '../../src/engine/index.js';
import { encodeRecord } from '../../src/engine/storage/records.js';
import type { AnyDoc } from './helpers/server.js';

const COMPACTION_CHILD = fileURLToPath(new URL('./helpers/compaction-child.ts', import.meta.url));
const FULL_DISK_CHILD = fileURLToPath(new URL('./helpers/full-disk-child.ts', import.meta.url));
/** emails the compaction child cycles through (see helpers/compaction-child.ts) */
const EMAILS = 20;

describe('engine: journal damage, repair, crash-safe compaction, failed writes', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    if (process.env.MONGODB_URI) this.skip(); // about the embedded engine's own data directory
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function withEngine<T>(
    fn: (client: MongoClient, events: EngineEvent[]) => Promise<T>,
    opts: EngineOptions = {},
  ): Promise<T> {
    const events: EngineEvent[] = [];
    const engine = await startEngine({ dataDir: dir, log: (e) => events.push(e), ...opts });
    const client = await MongoClient.connect(engine.uri);
    try {
      return await fn(client, events);
    } finally {
      await client.close();
      await engine.stop();
    }
  }

  const docs = (client: MongoClient) => client.db('j').collection<AnyDoc>('docs');
  const ids = async (client: MongoClient) =>
    (await docs(client).find().sort({ _id: 1 }).toArray()).map((d) => d._id as number);

  function journalName(): string {
    const [name] = readdirSync(dir).filter((f) => /^journal\.\d+\.bson$/.test(f));
    if (!name) throw new Error(`no journal in ${readdirSync(dir).join(', ')}`);
    return name;
  }

  /** Offsets of the records of a data file (u32 length | u32 crc | body). */
  function recordOffsets(file: string): number[] {
    const buf = readFileSync(join(dir, file));
    const out: number[] = [];
    for (let at = 0; at < buf.length; at += 8 + buf.readUInt32LE(at)) out.push(at);
    return out;
  }

  function digest(): string {
    const h = createHash('sha256');
    for (const f of readdirSync(dir).sort()) if (f !== 'LOCK') h.update(f).update(readFileSync(join(dir, f)));
    return h.digest('hex');
  }

  /** Ten documents, one insert (one journal record) each; the journal is left as is (no compaction at stop). */
  async function tenInserts(): Promise<void> {
    await withEngine(async (client) => {
      for (let i = 0; i < 10; i++) await docs(client).insertOne({ _id: i, v: `value ${i}` });
    });
  }

  it('a damaged record followed by good ones stops start-up, naming the file and the byte offset', async () => {
    await tenInserts();
    const file = journalName();
    const offsets = recordOffsets(file);
    // records: meta, create, then the inserts; damage the body of the fifth insert
    const target = offsets[6] as number;
    const buf = readFileSync(join(dir, file));
    buf[target + 20] ^= 0xff;
    writeFileSync(join(dir, file), buf);
    const before = digest();
    const err = await startEngine({ dataDir: dir }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.name).to.equal('DataDamagedError');
    expect(err?.message).to.include(join(dir, file)).and.include(`byte offset ${target}`);
    expect(err?.message).to.include('--repair');
    expect(digest()).to.equal(before); // nothing changed
  });

  it('--repair moves the damaged bytes aside into the data directory and keeps every intact record', async () => {
    await tenInserts();
    const file = journalName();
    const offsets = recordOffsets(file);
    const [start, end] = [offsets[6] as number, offsets[7] as number];
    const buf = readFileSync(join(dir, file));
    const damaged = Buffer.from(buf.subarray(start, end));
    damaged[20] ^= 0xff;
    damaged.copy(buf, start);
    writeFileSync(join(dir, file), buf);
    await withEngine(
      async (client, events) => {
        expect(await ids(client)).to.deep.equal([0, 1, 2, 3, 5, 6, 7, 8, 9]);
        const repaired = events.find((e) => e.event === 'recovery.repaired');
        expect(repaired?.level).to.equal('warn');
        expect(repaired?.message).to.include(`offset ${start}`);
      },
      { repair: true },
    );
    const [aside] = readdirSync(dir).filter((f) => f.startsWith(`${file}.damaged-`));
    expect(aside, readdirSync(dir).join(', ')).to.be.a('string');
    expect(readFileSync(join(dir, aside as string))).to.deep.equal(damaged);
    // the repaired directory starts without --repair and keeps accepting writes
    await withEngine(async (client) => {
      await docs(client).insertOne({ _id: 10 });
      expect(await ids(client)).to.deep.equal([0, 1, 2, 3, 5, 6, 7, 8, 9, 10]);
    });
  });

  it('a torn tail is cut off and logged; every acknowledged write is there', async () => {
    await tenInserts();
    const record = encodeRecord({ op: 'put', db: 'j', coll: 'docs', doc: { _id: 99 } });
    appendFileSync(join(dir, journalName()), record.subarray(0, record.length - 3));
    await withEngine(async (client, events) => {
      expect(await ids(client)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const torn = events.find((e) => e.event === 'recovery.torn-tail');
      expect(torn?.level).to.equal('warn');
      expect(torn?.details).to.include({ bytes: record.length - 3 });
    });
  });

  it('a damaged snapshot stops start-up; --repair keeps the intact part', async () => {
    await withEngine(
      async (client) => {
        await docs(client).insertMany(Array.from({ length: 600 }, (_, i) => ({ _id: i, v: i })));
        await docs(client).insertOne({ _id: 600 }); // the first write over the threshold starts a compaction
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
      { compactAtBytes: 1024 },
    );
    const offsets = recordOffsets('snapshot.bson');
    const buf = readFileSync(join(dir, 'snapshot.bson'));
    const target = offsets.at(-1) as number; // the last batch of documents: 512 to 599
    buf[target + 30] ^= 0xff;
    writeFileSync(join(dir, 'snapshot.bson'), buf);
    const err = await startEngine({ dataDir: dir }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).to.include(join(dir, 'snapshot.bson')).and.include(`byte offset ${target}`);
    await withEngine(
      async (client) => {
        // two intact batches of the snapshot, and the journal written after it
        expect(await ids(client)).to.deep.equal([...Array.from({ length: 512 }, (_, i) => i), 600]);
      },
      { repair: true },
    );
    expect(readdirSync(dir).some((f) => f.startsWith('snapshot.bson.damaged-'))).to.equal(true);
  });

  it('reads a data directory of format 1 (journal.bson) and rewrites it with generations', async () => {
    const legacy = (records: Parameters<typeof encodeRecord>[0][]) => Buffer.concat(records.map(encodeRecord));
    writeFileSync(
      join(dir, 'snapshot.bson'),
      legacy([
        { op: 'create', db: 'j', coll: 'docs', options: {} },
        { op: 'put', db: 'j', coll: 'docs', doc: { _id: 1, v: 'a' } },
      ]),
    );
    writeFileSync(
      join(dir, 'journal.bson'),
      legacy([
        { op: 'put', db: 'j', coll: 'docs', doc: { _id: 2, v: 'b' } },
        { op: 'del', db: 'j', coll: 'docs', id: 1 },
      ]),
    );
    await withEngine(async (client) => expect(await ids(client)).to.deep.equal([2]));
    expect(readdirSync(dir)).to.not.include('journal.bson');
    await withEngine(async (client) => expect(await ids(client)).to.deep.equal([2]));
  });

  describe('kill -9 at each step of a compaction', () => {
    const runs = new Map<string, { dir: string; child: Promise<{ acked: string[]; signal: NodeJS.Signals | null }> }>();
    before(() => {
      // the children run at the same time, each on a directory of its own
      for (const step of COMPACTION_STEPS) {
        const stepDir = mkdtempSync(join(tmpdir(), `engine-crash-${step}-`));
        runs.set(step, { dir: stepDir, child: runChild(COMPACTION_CHILD, [stepDir], { ENGINE_CRASH_AT: step }) });
      }
    });
    after(() => {
      for (const run of runs.values()) rmSync(run.dir, { recursive: true, force: true });
    });

    for (const step of COMPACTION_STEPS) {
      it(`${step}: every acknowledged write is there, no delete is undone, unique indexes hold`, async () => {
        const run = runs.get(step);
        if (!run) throw new Error(step);
        rmSync(dir, { recursive: true, force: true });
        dir = run.dir;
        const { acked, signal } = await run.child;
        expect(signal, 'the child died at the step').to.equal('SIGKILL');
        const puts = acked.filter((l) => l.startsWith('put ')).map((l) => Number(l.slice(4)));
        const dels = new Set(acked.filter((l) => l.startsWith('del ')).map((l) => Number(l.slice(4))));
        expect(puts.length).to.be.greaterThan(20);
        // the write in flight when the process died (sent, not acknowledged) may or may not be there
        const last = puts.at(-1) as number;
        const inFlightDelete = acked.at(-1)?.startsWith('put ') ? last + 1 - EMAILS : undefined;
        await withEngine(async (client, events) => {
          const users = client.db('durable').collection<AnyDoc>('users');
          const stored = new Set((await users.find().toArray()).map((d) => d._id as number));
          for (const id of puts)
            if (!dels.has(id) && id !== inFlightDelete) expect(stored.has(id), `acknowledged put ${id}`).to.equal(true);
          for (const id of dels) expect(stored.has(id), `acknowledged delete ${id}`).to.equal(false);
          // at most the write in flight when the process died is there unacknowledged
          expect(stored.size).to.be.within(puts.length - dels.size - 1, puts.length - dels.size + 1);
          const dup = await users.insertOne({ _id: -1, email: 'u1@example.com' }).then(
            () => 0,
            (e: { code?: number }) => e.code,
          );
          expect(dup, 'the unique index still holds').to.equal(11000);
          if (step === 'snapshot-renamed') expect(events.map((e) => e.event)).to.include('recovery.obsolete-journal');
        });
      });
    }
  });

  it('a failed journal write leaves memory unchanged and makes the engine refuse writes until restart', async function () {
    const { acked } = await runChild(FULL_DISK_CHILD, [dir], {}, 'ulimit -f 64;');
    const line = (prefix: string) => acked.find((l) => l.startsWith(prefix))?.slice(prefix.length);
    const ackedIds = acked.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4)));
    const [failedId, failCode] = (line('fail ') ?? '').split(' ').map(Number);
    expect(ackedIds.length).to.be.greaterThan(5);
    expect(failedId).to.equal(ackedIds.length);
    expect(failCode).to.equal(42); // LogWriteFailed
    expect(line('after ')).to.equal('371'); // UserWritesBlocked
    expect(line('read ')).to.equal(String(ackedIds.length)); // reads go on, without the undone write
    expect(line('present ')).to.equal('false');
    expect(line('event ')).to.equal('true');
    await withEngine(async (client) => {
      const writes = client.db('durable').collection<AnyDoc>('writes');
      expect((await writes.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).to.deep.equal(ackedIds);
      await writes.insertOne({ _id: failedId as number }); // writes work again after the restart
    });
  });
});

/** Runs a child script until it exits; its stdout lines are returned. `prefix` runs in the shell first (ulimit). */
function runChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  prefix = '',
): Promise<{ acked: string[]; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const command = `${prefix} exec "${process.execPath}" --import tsx "${script}" ${args.map((a) => `"${a}"`).join(' ')}`;
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
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

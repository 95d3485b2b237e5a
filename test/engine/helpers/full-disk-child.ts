// Child process for the failed-journal-write test, run under `ulimit -f` so that the kernel
// refuses to grow the journal past a few KB (EFBIG: a real failed write, like a full disk).
// Inserts until one fails, then reports what the engine answers and holds, one line each:
//   ack <id> | fail <id> <code> | after <code> | read <found ids> | present <bool>
import { MongoClient } from 'mongodb';
import { startEngine, type EngineEvent } from '../../../src/engine/index.js';
import type { AnyDoc } from './server.js';

process.on('SIGXFSZ', () => {}); // the write then fails with EFBIG instead of killing the process
const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: full-disk-child DIR');
const events: EngineEvent[] = [];
const engine = await startEngine({ dataDir: dir, log: (e) => events.push(e) });
const client = await MongoClient.connect(engine.uri, { retryWrites: false });
const coll = client.db('durable').collection<AnyDoc>('writes');
let failed = -1;
for (let i = 0; i < 10_000 && failed < 0; i++) {
  try {
    await coll.insertOne({ _id: i, payload: 'p'.repeat(500) });
    process.stdout.write(`ack ${i}\n`);
  } catch (err) {
    failed = i;
    process.stdout.write(`fail ${i} ${(err as { code?: number }).code}\n`);
  }
}
const after = await coll.insertOne({ _id: 'later', payload: 'x' }).then(
  () => 'ok',
  (e: { code?: number }) => String(e.code),
);
process.stdout.write(`after ${after}\n`);
process.stdout.write(`read ${await coll.countDocuments({})}\n`);
process.stdout.write(`present ${(await coll.findOne({ _id: failed })) !== null}\n`);
process.stdout.write(`event ${events.some((e) => e.event === 'journal.write-failed')}\n`);
process.exit(0);

// Child process for the compaction crash test: opens the engine on a data directory with a tiny
// compaction threshold and ENGINE_CRASH_AT naming the compaction step at which the process kills
// itself (SIGKILL). Writes through a unique index: each user `u<k>` is deleted before the next
// document takes its email, so replaying an old journal over a newer snapshot would collide or
// resurrect deleted documents. Prints every acknowledged write: `put <id>` / `del <id>`.
import { MongoClient } from 'mongodb';
import { COMPACTION_STEPS, startEngine, type CompactionStep } from '../../../src/engine/index.js';
import type { AnyDoc } from './server.js';

const [dir] = process.argv.slice(2);
const step = process.env.ENGINE_CRASH_AT as CompactionStep | undefined;
if (!dir || !step || !COMPACTION_STEPS.includes(step))
  throw new Error('usage: compaction-child DIR (ENGINE_CRASH_AT=<step>)');
const engine = await startEngine({ dataDir: dir, compactAtBytes: 16 * 1024, crashAt: step });
const client = await MongoClient.connect(engine.uri);
const users = client.db('durable').collection<AnyDoc>('users');
await users.createIndex({ email: 1 }, { unique: true });
const EMAILS = 20;
for (let i = 0; i < 100_000; i++) {
  if (i >= EMAILS) {
    await users.deleteOne({ _id: i - EMAILS });
    process.stdout.write(`del ${i - EMAILS}\n`);
  }
  await users.insertOne({ _id: i, email: `u${i % EMAILS}@example.com`, note: 'n'.repeat(200) });
  process.stdout.write(`put ${i}\n`);
}
process.stdout.write('never crashed\n');
process.exit(1);

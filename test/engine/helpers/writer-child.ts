// Child process for the SIGKILL persistence tests: opens the engine on a data directory, then
// inserts documents one by one and prints each acknowledged _id on its own line. With `counter`,
// each insert first takes a number from a counter written with `j: false` (as the service's ids).
import { MongoClient } from 'mongodb';
import { startEngine } from '../../../src/engine/index.js';
import type { AnyDoc } from './server.js';

const [dir, mode] = process.argv.slice(2);
const engine = await startEngine({ dataDir: dir });
const client = await MongoClient.connect(engine.uri);
const coll = client.db('durable').collection<AnyDoc>('writes');
process.stdout.write('ready\n');
const counters = client.db('durable').collection<{ _id: string; seq: number }>('counters');
for (let i = 0; ; i++) {
  const counter =
    mode === 'counter'
      ? await counters.findOneAndUpdate(
          { _id: 'writes' },
          { $inc: { seq: 1 } },
          { upsert: true, returnDocument: 'after', writeConcern: { w: 1, j: false } },
        )
      : null;
  await coll.insertOne({ _id: i, payload: 'x'.repeat(i % 500), ...(counter ? { seq: counter.seq } : {}) });
  process.stdout.write(`${i}\n`);
}

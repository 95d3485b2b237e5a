// Child process for the SIGKILL persistence test: opens the engine on a data directory, then
// inserts documents one by one and prints each acknowledged _id on its own line.
import { MongoClient } from 'mongodb';
import { startEngine } from '../../../src/engine/index.js';
import type { AnyDoc } from './server.js';

const dir = process.argv[2];
const engine = await startEngine({ dataDir: dir });
const client = await MongoClient.connect(engine.uri);
const coll = client.db('durable').collection<AnyDoc>('writes');
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  await coll.insertOne({ _id: i, payload: 'x'.repeat(i % 500) });
  process.stdout.write(`${i}\n`);
}

// Child process for the transaction crash test: opens the engine on a data directory with the
// `transaction-group` crash point, makes acknowledged writes outside transactions and in
// transactions of one record (journaled without a group), printing each, then commits a
// transaction of three records: the process kills itself with the group head and its first
// record on disk.
import { MongoClient } from 'mongodb';
import { startEngine } from '../../../src/engine/index.js';
import type { AnyDoc } from './server.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: transaction-child DIR');
const engine = await startEngine({ dataDir: dir, crashAt: 'transaction-group' });
const client = await MongoClient.connect(engine.uri);
const db = client.db('durable');
const [a, b, counters] = [db.collection<AnyDoc>('a'), db.collection<AnyDoc>('b'), db.collection<AnyDoc>('counters')];
await counters.insertOne({ _id: 'n', n: 0 });
process.stdout.write('counter\n');
for (let i = 0; i < 5; i++) {
  await a.insertOne({ _id: i });
  process.stdout.write(`a ${i}\n`);
}
const session = client.startSession();
await session.withTransaction(() => b.insertOne({ _id: 0 }, { session }));
process.stdout.write('b 0\n');
await session.withTransaction(async () => {
  await a.insertOne({ _id: 100 }, { session });
  await b.insertOne({ _id: 100 }, { session });
  await counters.updateOne({ _id: 'n' }, { $inc: { n: 1 } }, { session });
});
process.stdout.write('never crashed\n');
process.exit(1);

// TTL indexes through the driver: the monitor deletes documents whose indexed date is older than
// expireAfterSeconds (the earliest date of an array), leaves the others (recent dates, non-dates,
// compound TTL indexes) alone. The engine runs its monitor every 100 ms here (an engine option);
// against a real mongod the test sets ttlMonitorSleepSecs to 1 for its duration.
import { expect } from 'chai';
import type { Collection, Document } from 'mongodb';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

const HOUR = 3_600_000;

async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('engine: TTL indexes', () => {
  let server: TestServer;
  let sessions: Collection<AnyDoc>;
  let previousSleep: unknown;
  before(async () => {
    server = await startTestServer('ttl', { ttlIntervalMs: 100 });
    if (!server.embedded) {
      const reply = await server.client.db('admin').command({ setParameter: 1, ttlMonitorSleepSecs: 1 });
      previousSleep = reply.was;
    }
    sessions = server.db.collection<AnyDoc>('sessions');
  });
  after(async () => {
    if (!server.embedded && previousSleep !== undefined)
      await server.client.db('admin').command({ setParameter: 1, ttlMonitorSleepSecs: previousSleep });
    await server.stop();
  });

  it('deletes expired documents on a background pass, keeps the rest', async () => {
    const now = Date.now();
    await sessions.createIndex({ createdAt: 1 }, { expireAfterSeconds: 60 });
    await sessions.insertMany([
      { _id: 'old', createdAt: new Date(now - HOUR) },
      { _id: 'old-in-array', createdAt: [new Date(now + HOUR), new Date(now - HOUR)] },
      { _id: 'fresh', createdAt: new Date(now) },
      { _id: 'not-a-date', createdAt: 'yesterday' },
      { _id: 'missing' },
    ]);
    await eventually(async () => (await sessions.countDocuments({})) === 3, 10_000);
    const left = (await sessions.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(left).to.deep.equal(['fresh', 'missing', 'not-a-date']);
    const [index] = (await sessions.indexes()).filter((ix) => ix.name === 'createdAt_1');
    expect(index?.expireAfterSeconds).to.equal(60);
  });

  it('collMod changes expireAfterSeconds, and the next pass uses it', async () => {
    const reply: Document = await server.db.command({
      collMod: 'sessions',
      index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 0 },
    });
    expect(reply).to.include({ expireAfterSeconds_old: 60, expireAfterSeconds_new: 0 });
    await eventually(async () => (await sessions.findOne({ _id: 'fresh' })) === null, 10_000);
    expect(await sessions.countDocuments({})).to.equal(2);
  });

  it('a compound index with expireAfterSeconds expires nothing', async () => {
    const logs = server.db.collection<AnyDoc>('logs');
    await logs.createIndex({ at: 1, level: 1 }, { expireAfterSeconds: 1 });
    await logs.insertOne({ _id: 1, at: new Date(Date.now() - HOUR), level: 'info' });
    // a later document in a TTL index of its own shows that passes have run meanwhile
    const marks = server.db.collection<AnyDoc>('marks');
    await marks.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await marks.insertOne({ _id: 1, at: new Date(Date.now() - HOUR) });
    await eventually(async () => (await marks.countDocuments({})) === 0, 10_000);
    expect(await logs.countDocuments({})).to.equal(1);
  });
});

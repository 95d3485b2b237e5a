import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Binary,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  ObjectId,
  type CommandStartedEvent,
  type Document,
} from 'mongodb';
import { constantStage } from '../../src/database/constant-stages.js';
import { openWireReads } from '../../src/database/wire-reads.js';
import { startEngine, type Engine } from '../../src/engine/index.js';

// The read path's own wire client (src/database/wire-reads.ts) against the driver, on one engine of
// its own: the same documents with the same value types, the same errors, cursors drained.
describe('wire reads: the read path without the driver', function () {
  let dir: string;
  let engine: Engine;
  let client: MongoClient;
  const DB = 'wire';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wire-reads-'));
    engine = await startEngine({ host: '127.0.0.1', port: 0, socketPath: join(dir, 'engine.sock') });
    client = await MongoClient.connect(engine.socketUri ?? '', { monitorCommands: true });
    const docs: Document[] = [];
    for (let i = 1; i <= 350; i++)
      docs.push({
        _id: i,
        title: `entry ${i} é ☃`,
        n: i % 7 === 0 ? new Double(i) : new Int32(i),
        big: Long.fromString('9007199254740993'),
        small: Long.fromNumber(i),
        price: Decimal128.fromString(`${i}.25`),
        at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
        oid: new ObjectId('0123456789abcdef01234567'),
        bin: new Binary(Buffer.from([i % 256, 1, 2])),
        re: /^a.b$/i,
        nested: { list: [i, `x${i}`, { deep: null }], empty: {} },
        blank: null,
      });
    await client.db(DB).collection('items').insertMany(docs);
  });
  after(async () => {
    await client.close();
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const viaDriver = (pipeline: Document[]) => client.db(DB).collection('items').aggregate(pipeline).toArray();

  it('sends constant stages (encoded once) as their BSON, among stages made per read', async () => {
    const wire = openWireReads(client);
    try {
      const lookup = constantStage({
        $lookup: {
          from: 'items',
          localField: 'n',
          foreignField: '_id',
          pipeline: [
            { $match: { at: { $gte: new Date(Date.UTC(2024, 0, 1)) }, oid: new ObjectId('0123456789abcdef01234567') } },
            { $project: { title: 1, price: 1 } },
          ],
          as: 'joined',
        },
      });
      const project = constantStage({ $project: { title: 1, joined: 1, re: 1, price: 1 } });
      // two-digit positions: the array's keys are written by hand for constant stages
      const padding = Array.from({ length: 10 }, () => constantStage({ $match: { title: { $regex: /entry/ } } }));
      for (const limit of [1, 5, 5]) {
        const pipeline = [
          { $match: { _id: { $lte: 40 } } },
          ...padding,
          { $sort: { _id: -1 } },
          { $limit: limit },
          lookup,
          project,
        ];
        expect(await wire.aggregateAll(DB, 'items', pipeline)).to.deep.equal(await viaDriver(pipeline));
      }
      expect(() => {
        (project.$project as Record<string, number>).title = 0;
      }).to.throw(TypeError);
      expect(Object.isFrozen((lookup.$lookup as { pipeline: unknown[] }).pipeline[0])).to.equal(true);
    } finally {
      wire.close();
    }
  });

  it('answers what the driver answers, value types included, over a Unix socket and over TCP', async () => {
    const overTcp = await MongoClient.connect(engine.uri);
    const wires = [openWireReads(client), openWireReads(overTcp)];
    try {
      for (const wire of wires)
        for (const pipeline of [
          [{ $match: { _id: { $lte: 3 } } }],
          [{ $sort: { _id: -1 } }, { $limit: 2 }, { $project: { title: 1, price: 1, big: 1 } }],
          [{ $match: { title: 'nothing' } }],
          [{ $count: 'n' }],
        ]) {
          const [mine, theirs] = [await wire.aggregateAll(DB, 'items', pipeline), await viaDriver(pipeline)];
          expect(mine).to.deep.equal(theirs);
          for (const [i, doc] of mine.entries())
            for (const [key, value] of Object.entries(doc))
              expect(value?.constructor, key).to.equal((theirs[i] as Document)[key]?.constructor);
        }
    } finally {
      for (const wire of wires) wire.close();
      await overTcp.close();
    }
  });

  it('drains a cursor longer than the first batch with getMore, and several reads at once share its connections', async () => {
    const wire = openWireReads(client);
    const sent: string[] = [];
    const listener = (event: CommandStartedEvent) => sent.push(event.commandName);
    client.on('commandStarted', listener);
    try {
      const all = await wire.aggregateAll(DB, 'items', [{ $sort: { _id: 1 } }]);
      client.off('commandStarted', listener);
      expect(all.map((d) => d._id)).to.deep.equal(Array.from({ length: 350 }, (_, i) => i + 1));
      expect(sent[0]).to.equal('aggregate');
      expect(sent.filter((name) => name === 'getMore').length).to.be.greaterThan(0);
      const many = await Promise.all(
        Array.from({ length: 20 }, (_, i) => wire.aggregateAll(DB, 'items', [{ $match: { _id: i + 1 } }])),
      );
      expect(many.map((docs) => docs[0]?._id)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    } finally {
      client.off('commandStarted', listener);
      wire.close();
    }
  });

  it('throws the driver’s MongoServerError for a refused command, with its code and message', async () => {
    const wire = openWireReads(client);
    try {
      const bad = [{ $nonsense: 1 }];
      const theirs = await viaDriver(bad).catch((err: unknown) => err);
      const mine = await wire.aggregateAll(DB, 'items', bad).catch((err: unknown) => err);
      expect(theirs).to.be.instanceOf(MongoServerError);
      expect(mine).to.be.instanceOf(MongoServerError);
      expect((mine as MongoServerError).code).to.equal((theirs as MongoServerError).code);
      expect((mine as MongoServerError).message).to.equal((theirs as MongoServerError).message);
      // the connection carries on after a refused command
      expect(await wire.aggregateAll(DB, 'items', [{ $match: { _id: 1 } }, { $project: { _id: 1 } }])).to.deep.equal([
        { _id: 1 },
      ]);
    } finally {
      wire.close();
    }
  });

  it('reports its commands as the driver does when the client monitors them', async () => {
    const wire = openWireReads(client);
    const seen: string[] = [];
    const listener = (event: CommandStartedEvent) => seen.push(`${event.commandName} ${event.databaseName}`);
    client.on('commandStarted', listener);
    try {
      await wire.aggregateAll(DB, 'items', [{ $match: { _id: 2 } }]);
    } finally {
      client.off('commandStarted', listener);
      wire.close();
    }
    expect(seen).to.deep.equal([`aggregate ${DB}`]);
  });

  it('fails what is in flight and what comes after it is closed, with a network error', async () => {
    const wire = openWireReads(client);
    const inFlight = wire.aggregateAll(DB, 'items', [{ $sort: { title: -1 } }]).catch((err: unknown) => err);
    wire.close();
    expect(await inFlight).to.be.instanceOf(MongoNetworkError);
    expect(await wire.aggregateAll(DB, 'items', []).catch((err: unknown) => err)).to.be.instanceOf(MongoNetworkError);
  });
});

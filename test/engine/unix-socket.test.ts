import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngineThread } from '../../src/database/engine-thread.js';
import { startEngine } from '../../src/engine/index.js';
import { capturingLogger } from '../helpers/log-capture.js';

// Each test starts an engine of its own, whatever database the run uses.
describe('engine: Unix domain socket beside TCP', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-socket-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same data on the socket and on TCP, over a stale socket file left by a killed process', async () => {
    const socketPath = join(dir, 'engine.sock');
    writeFileSync(socketPath, '');
    const engine = await startEngine({ socketPath });
    expect(engine.socketUri).to.equal(`mongodb://${encodeURIComponent(socketPath)}`);
    const overSocket = await MongoClient.connect(engine.socketUri ?? '');
    const overTcp = await MongoClient.connect(engine.uri);
    type Row = { _id: number; v: string };
    try {
      await overSocket
        .db('s')
        .collection<{ _id: number; v: string }>('c')
        .insertOne({ _id: 1, v: 'written over the socket' });
      expect(await overTcp.db('s').collection<Row>('c').findOne({ _id: 1 })).to.deep.equal({
        _id: 1,
        v: 'written over the socket',
      });
    } finally {
      await overSocket.close();
      await overTcp.close();
      await engine.stop();
    }
  });

  it('the engine thread answers on its socket and removes the socket directory when it stops', async () => {
    const engine = await startEngineThread({ host: '127.0.0.1' });
    const path = decodeURIComponent(engine.socketUri.slice('mongodb://'.length));
    expect(existsSync(path)).to.equal(true);
    const client = await MongoClient.connect(engine.socketUri);
    try {
      expect(await client.db('admin').command({ ping: 1 })).to.include({ ok: 1 });
    } finally {
      await client.close();
      await engine.stop();
    }
    expect(existsSync(dirname(path))).to.equal(false);
  });

  it('a stop that has to terminate the engine thread leaves the data directory to the next start in the same process', async () => {
    const dataDir = join(dir, 'data');
    const first = await startEngineThread({ host: '127.0.0.1', dataDir, ignoreStop: true, stopWaitMs: 100 });
    const client = await MongoClient.connect(first.socketUri);
    try {
      await client.db('s').collection<{ _id: number }>('c').insertOne({ _id: 1 });
    } finally {
      await client.close();
      await first.stop();
    }
    const second = await startEngineThread({ host: '127.0.0.1', dataDir });
    const again = await MongoClient.connect(second.socketUri);
    try {
      expect(await again.db('s').collection<{ _id: number }>('c').findOne({ _id: 1 })).to.deep.equal({ _id: 1 });
    } finally {
      await again.close();
      await second.stop();
    }
  });

  it("the engine thread's `decoded` settles once the worker has decoded a persisted start's documents", async () => {
    const dataDir = join(dir, 'data');
    const first = await startEngineThread({ host: '127.0.0.1', dataDir });
    await first.decoded; // nothing to decode in a new directory
    const client = await MongoClient.connect(first.socketUri);
    try {
      const items = client.db('s').collection<{ _id: number; n: string }>('items');
      for (let from = 0; from < 6_000; from += 1_000)
        await items.insertMany(Array.from({ length: 1_000 }, (_, i) => ({ _id: from + i, n: `item ${from + i}` })));
    } finally {
      await client.close();
      await first.stop(); // compacted into a snapshot of batches, which the next start leaves encoded
    }
    const { logger, lines } = capturingLogger();
    const second = await startEngineThread({ host: '127.0.0.1', dataDir, logger });
    try {
      await second.decoded;
      const decoded = lines.find((line) => line.engine === 'documents.decoded');
      expect(decoded?.steps).to.be.greaterThan(1);
      const again = await MongoClient.connect(second.socketUri);
      expect(await again.db('s').collection('items').countDocuments({})).to.equal(6_000);
      await again.close();
    } finally {
      await second.stop();
    }
  });

  it('removes the socket directories of engine threads whose process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const left = join(tmpdir(), `content-service-engine-${gone}-x1`);
    mkdirSync(left);
    writeFileSync(join(left, 'engine.sock'), '');
    const engine = await startEngineThread({ host: '127.0.0.1' });
    try {
      expect(existsSync(left)).to.equal(false);
      expect(decodeURIComponent(engine.socketUri)).to.include(`content-service-engine-${process.pid}-`);
    } finally {
      await engine.stop();
    }
  });
});

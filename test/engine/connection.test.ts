import { expect } from 'chai';
import { BSON, Long, MongoClient, MongoServerError } from 'mongodb';
import { connect, type Socket } from 'node:net';
import { type AnyDoc, startTestServer, type TestServer } from './helpers/server.js';

/** Sends raw bytes on a new socket; resolves with what came back and whether the server closed it. */
function rawExchange(uri: string, payload: Buffer, waitMs = 300): Promise<{ closed: boolean; data: Buffer }> {
  const { hostname, port } = new URL(uri.replace(/^mongodb:/, 'http:'));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let closed = false;
    const socket: Socket = connect(Number(port), hostname, () => socket.write(payload));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {
      closed = true;
    });
    socket.on('close', () => {
      closed = true;
    });
    setTimeout(() => {
      socket.destroy();
      resolve({ closed, data: Buffer.concat(chunks) });
    }, waitMs);
  });
}

function opMsg(command: Record<string, unknown>, requestId = 7): Buffer {
  const body = BSON.serialize(command);
  const head = Buffer.alloc(21);
  head.writeInt32LE(21 + body.length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(2013, 12);
  return Buffer.concat([head, body]);
}

describe('engine: connection and server commands', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('connection');
  });
  after(async () => {
    await server.stop();
  });

  it('answers hello as a writable standalone with the fields drivers need', async () => {
    const reply = await server.client.db('admin').command({ hello: 1 });
    expect(reply.ok).to.equal(1);
    expect(reply.isWritablePrimary).to.equal(true);
    expect(reply.maxWireVersion).to.be.within(9, 29);
    expect(reply).to.include.keys(
      'minWireVersion',
      'maxBsonObjectSize',
      'maxMessageSizeBytes',
      'maxWriteBatchSize',
      'localTime',
      'logicalSessionTimeoutMinutes',
    );
    expect(reply.setName).to.equal(undefined);
    const legacy = await server.client.db('admin').command({ isMaster: 1 });
    expect(legacy.ismaster).to.equal(true);
  });

  it('answers ping, buildInfo, getParameter and serverStatus', async () => {
    const admin = server.client.db('admin');
    expect((await admin.command({ ping: 1 })).ok).to.equal(1);
    const info = await admin.command({ buildInfo: 1 });
    expect(info.version).to.be.a('string');
    expect(info.versionArray).to.be.an('array');
    const fcv = await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(fcv.featureCompatibilityVersion.version).to.be.a('string');
    const status = await admin.command({ serverStatus: 1 });
    expect(status.ok).to.equal(1);
    expect(status.connections.current).to.be.greaterThan(0);
    expect(status.localTime).to.be.instanceOf(Date);
  });

  it('answers an unknown command with 59 CommandNotFound', async () => {
    const err = await server.db.command({ noSuchCommand: 1 }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(MongoServerError);
    expect((err as MongoServerError).code).to.equal(59);
    expect((err as MongoServerError).codeName).to.equal('CommandNotFound');
  });

  // transactions themselves are the engine's (transactions.test.ts); a standalone mongod has none
  it('rejects retryable-write transaction numbers like a standalone mongod (code 20)', async () => {
    const session = server.client.startSession();
    try {
      const err = await server.db
        .command({ insert: 'txn', documents: [{ a: 1 }], txnNumber: Long.fromNumber(1) }, { session })
        .catch((e: unknown) => e);
      expect((err as MongoServerError).code).to.equal(20);
      expect((err as MongoServerError).message).to.match(
        /Transaction numbers are only allowed on a replica set member or mongos/,
      );
    } finally {
      await session.endSession();
    }
  });

  it('ends sessions (moreToCome messages get no reply) and keeps working', async () => {
    const client = await MongoClient.connect(server.uri);
    const session = client.startSession();
    await client.db(server.db.databaseName).collection<AnyDoc>('s').findOne({}, { session });
    await session.endSession();
    await client.close();
    expect((await server.db.command({ ping: 1 })).ok).to.equal(1);
  });

  it('closes only the connection that sends garbage, a bad length or an oversized message', async () => {
    const garbage = await rawExchange(server.uri, Buffer.from('this is not a mongodb message at all!'));
    expect(garbage.closed).to.equal(true);
    const huge = Buffer.alloc(16);
    huge.writeInt32LE(100 * 1024 * 1024, 0);
    huge.writeInt32LE(2013, 12);
    const oversized = await rawExchange(server.uri, huge);
    expect(oversized.closed).to.equal(true);
    const badBson = opMsg({ ping: 1 });
    badBson.writeInt32LE(9999, 21); // document length points past the message
    const malformed = await rawExchange(server.uri, badBson);
    expect(malformed.closed).to.equal(true);
    expect((await server.db.command({ ping: 1 })).ok).to.equal(1);
  });

  it('replies to a well-formed raw OP_MSG', async () => {
    const { data, closed } = await rawExchange(server.uri, opMsg({ ping: 1, $db: 'admin' }));
    expect(closed).to.equal(false);
    expect(data.readInt32LE(8)).to.equal(7); // responseTo
    expect(data.readInt32LE(12)).to.equal(2013);
    expect(BSON.deserialize(data.subarray(21)).ok).to.equal(1);
  });
});

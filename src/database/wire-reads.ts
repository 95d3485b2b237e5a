// The read path's commands to the embedded engine, sent over the wire protocol without the
// driver's machinery around each command (server selection, implicit sessions, operation objects,
// retries, timeouts, pool events): on a one-entry GET that machinery was about half of the HTTP
// thread's cost of the command (docs/benchmarks.md, seventh session). The bytes are the same OP_MSG the driver
// sends, to the address the driver connected to, answered by the same engine code; only the
// embedded engine is read this way (Models.init decides): a real MongoDB keeps the driver, with
// its authentication, TLS, compression and topology. Writes, and reads inside a transaction,
// always go through the driver.
import { createConnection, type Socket } from 'node:net';
import { messageSplitter } from '../engine/protocol/framing.js';
import { OP_MSG } from '../engine/protocol/wire.js';
import { stageBytes } from './constant-stages.js';
import { BSON, type Document, type MongoClient, MongoNetworkError, MongoServerError } from 'mongodb';

const HEADER_BYTES = 21; // message header (16), flag bits (4), section kind (1)
/** connections opened at most: a long read in time slices does not hold up the others behind it */
const MAX_CONNECTIONS = 4;

export interface WireReads {
  /** Every document an aggregation yields, its cursor drained with getMore. */
  aggregateAll(dbName: string, collection: string, pipeline: Document[], maxTimeMS?: number): Promise<Document[]>;
  close(): void;
}

interface Pending {
  resolve(reply: Document): void;
  reject(error: Error): void;
}

interface Channel {
  socket: Socket;
  pending: Map<number, Pending>;
}

/**
 * Wire reads to the embedded engine `client` is connected to (its first host: a Unix domain socket
 * or host:port), decoding replies with the client's BSON options, and reporting each command as
 * `commandStarted` on `client` when it monitors commands (as the driver would).
 */
export function openWireReads(client: MongoClient): WireReads {
  const [host] = client.options.hosts;
  if (!host) throw new Error('the client names no host');
  const address = host.socketPath
    ? { path: host.socketPath }
    : { host: host.host ?? '127.0.0.1', port: host.port ?? 27017 };
  const bson = client.bsonOptions;
  const decodeOptions: BSON.DeserializeOptions = {
    promoteLongs: bson.promoteLongs,
    promoteValues: bson.promoteValues,
    promoteBuffers: bson.promoteBuffers,
    bsonRegExp: bson.bsonRegExp,
    useBigInt64: bson.useBigInt64,
    // the engine encodes JavaScript strings, always valid UTF-8: validating every string of every
    // reply was more than half of its decoding
    validation: { utf8: false },
  };
  const monitored = client.options.monitorCommands === true;
  const channels: Channel[] = [];
  let nextRequestId = 1;
  let closed = false;

  function open(): Channel {
    const socket = createConnection(address);
    socket.setNoDelay(true);
    socket.unref();
    const channel: Channel = { socket, pending: new Map() };
    socket.on(
      'data',
      messageSplitter(
        (message) => {
          answer(channel, message);
          return true;
        },
        (length) => fail(new MongoNetworkError(`invalid reply length ${length} from the engine`)),
      ),
    );
    const fail = (error: Error) => {
      const index = channels.indexOf(channel);
      if (index >= 0) channels.splice(index, 1);
      for (const waiting of channel.pending.values()) waiting.reject(error);
      channel.pending.clear();
      socket.destroy();
    };
    socket.on('error', (err) => fail(new MongoNetworkError(err.message, { cause: err })));
    socket.on('close', () => fail(new MongoNetworkError('connection to the engine closed')));
    channels.push(channel);
    return channel;
  }

  function answer(channel: Channel, message: Buffer): void {
    const responseTo = message.readInt32LE(8);
    const waiting = channel.pending.get(responseTo);
    if (!waiting) return;
    channel.pending.delete(responseTo);
    if (channel.pending.size === 0) channel.socket.unref();
    let reply: Document;
    try {
      if (message.readInt32LE(12) !== OP_MSG || message[HEADER_BYTES - 1] !== 0)
        throw new MongoNetworkError('unexpected reply from the engine');
      reply = BSON.deserialize(message.subarray(HEADER_BYTES), decodeOptions);
    } catch (err) {
      waiting.reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (reply.ok === 1) waiting.resolve(reply);
    else waiting.reject(new MongoServerError(reply as ConstructorParameters<typeof MongoServerError>[0]));
  }

  /** An idle connection, else a new one while under the limit, else the least busy. */
  function channel(): Channel {
    let least: Channel | undefined;
    for (const c of channels) {
      if (c.pending.size === 0) return c;
      if (!least || c.pending.size < least.pending.size) least = c;
    }
    return channels.length < MAX_CONNECTIONS || !least ? open() : least;
  }

  /** Runs `cmd` on database `dbName`; an `ok: 0` reply throws the driver's MongoServerError. */
  function command(dbName: string, cmd: Document): Promise<Document> {
    const full = { ...cmd, $db: dbName };
    return send(full, (requestId) => {
      const body = BSON.serialize(full);
      const bytes = message(requestId, body.length);
      bytes.set(body, HEADER_BYTES);
      return bytes;
    });
  }

  /** Runs an `aggregate`, its constant stages encoded once (database/constant-stages.ts). */
  function aggregate(dbName: string, collection: string, pipeline: Document[], maxTimeMS?: number): Promise<Document> {
    const full = {
      aggregate: collection,
      pipeline,
      cursor: {},
      ...(maxTimeMS === undefined ? {} : { maxTimeMS }),
      $db: dbName,
    };
    return send(full, (requestId) => aggregateMessage(requestId, full));
  }

  function send(full: Document, encode: (requestId: number) => Buffer): Promise<Document> {
    if (closed) return Promise.reject(new MongoNetworkError('the wire reads are closed'));
    const requestId = nextRequestId++;
    if (monitored) reportStarted(client, full, full.$db as string, requestId);
    const bytes = encode(requestId);
    const target = channel();
    return new Promise<Document>((resolve, reject) => {
      target.pending.set(requestId, { resolve, reject });
      target.socket.ref();
      target.socket.write(bytes);
    });
  }

  return {
    async aggregateAll(dbName, collection, pipeline, maxTimeMS) {
      const first = await aggregate(dbName, collection, pipeline, maxTimeMS);
      const cursor = first.cursor as { id: unknown; firstBatch: Document[] };
      const docs = cursor.firstBatch;
      let id = cursor.id;
      while (Number(id) !== 0) {
        const more = await command(dbName, {
          getMore: typeof id === 'number' ? BSON.Long.fromNumber(id) : id,
          collection,
        });
        const next = more.cursor as { id: unknown; nextBatch: Document[] };
        for (const doc of next.nextBatch) docs.push(doc);
        id = next.id;
      }
      return docs;
    },
    close() {
      closed = true;
      for (const c of channels.splice(0)) {
        for (const waiting of c.pending.values()) waiting.reject(new MongoNetworkError('the wire reads are closed'));
        c.pending.clear();
        c.socket.destroy();
      }
    },
  };
}

/** An OP_MSG of one body section of `bodyLength` bytes, its header written. */
function message(requestId: number, bodyLength: number): Buffer {
  const bytes = Buffer.allocUnsafe(HEADER_BYTES + bodyLength);
  bytes.writeInt32LE(bytes.length, 0);
  bytes.writeInt32LE(requestId, 4);
  bytes.writeInt32LE(0, 8);
  bytes.writeInt32LE(OP_MSG, 12);
  bytes.writeUInt32LE(0, 16);
  bytes[20] = 0;
  return bytes;
}

const PIPELINE_KEY = Buffer.from('pipeline\0', 'latin1');
const BSON_DOCUMENT = 0x03;
const BSON_ARRAY = 0x04;

/**
 * The aggregate command `full` as one OP_MSG: the BSON `BSON.serialize(full)` would make, each
 * stage's bytes from `stageBytes` (made once for a constant stage). `pipeline` must be the
 * command's second field.
 */
function aggregateMessage(requestId: number, full: Document): Buffer {
  const { aggregate, pipeline, ...rest } = full as { aggregate: string; pipeline: Document[] };
  const head = BSON.serialize({ aggregate }); // length, the `aggregate` element, 0
  const tail = BSON.serialize(rest); // length, the other elements, 0
  const keys: Buffer[] = [];
  const stages: Uint8Array[] = [];
  let arrayLength = 5; // its length and its closing 0
  for (let i = 0; i < pipeline.length; i++) {
    const key = Buffer.from(`${i}\0`, 'latin1');
    const stage = stageBytes(pipeline[i] as Document, (value) => BSON.serialize(value));
    keys.push(key);
    stages.push(stage);
    arrayLength += 1 + key.length + stage.length;
  }
  const documentLength = head.length - 1 + 1 + PIPELINE_KEY.length + arrayLength + tail.length - 4;
  const bytes = message(requestId, documentLength);
  let at = HEADER_BYTES;
  bytes.writeInt32LE(documentLength, at);
  at += 4;
  bytes.set(head.subarray(4, head.length - 1), at);
  at += head.length - 5;
  bytes[at++] = BSON_ARRAY;
  bytes.set(PIPELINE_KEY, at);
  at += PIPELINE_KEY.length;
  bytes.writeInt32LE(arrayLength, at);
  at += 4;
  for (let i = 0; i < stages.length; i++) {
    bytes[at++] = BSON_DOCUMENT;
    bytes.set(keys[i] as Buffer, at);
    at += (keys[i] as Buffer).length;
    bytes.set(stages[i] as Uint8Array, at);
    at += (stages[i] as Uint8Array).length;
  }
  bytes[at++] = 0;
  bytes.set(tail.subarray(4), at);
  return bytes;
}

/** What the driver emits for a command it sends with command monitoring on (the fields observers read). */
function reportStarted(client: MongoClient, command: Document, databaseName: string, requestId: number): void {
  const commandName = Object.keys(command)[0] ?? '';
  client.emit('commandStarted', {
    commandName,
    command,
    databaseName,
    requestId,
    connectionId: 'wire-reads',
    address: 'wire-reads',
  } as never);
}

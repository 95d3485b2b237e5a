// Each engine suite gets its own server: the embedded engine, or the real MongoDB in MONGODB_URI
// (then the same assertions prove the engine behaves like mongod).
import { expect } from 'chai';
import {
  Decimal128,
  Double,
  Int32,
  Long,
  MongoClient,
  MongoServerError,
  ObjectId,
  type Db,
  type Document,
} from 'mongodb';
import { startEngine, type EngineOptions } from '../../../src/engine/index.js';

export interface TestServer {
  uri: string;
  client: MongoClient;
  /** a fresh database for the suite, dropped at the end */
  db: Db;
  /** true when running against the embedded engine */
  embedded: boolean;
  stop(): Promise<void>;
}

let counter = 0;

/** `engineOptions` apply to the embedded engine only. */
export async function startTestServer(name: string, engineOptions: EngineOptions = {}): Promise<TestServer> {
  const external = process.env.MONGODB_URI;
  const engine = external ? undefined : await startEngine({ ...engineOptions, port: 0 });
  const uri = external ?? engine?.uri ?? '';
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`engine_${name}_${process.pid}_${counter++}`);
  return {
    uri,
    client,
    db,
    embedded: !external,
    async stop() {
      await db.dropDatabase().catch(() => {});
      await client.close();
      await engine?.stop();
    },
  };
}

/** The URI of a database on the server, for Mongoose. */
export function dbUri(server: TestServer, dbName: string): string {
  const u = new URL(server.uri);
  u.pathname = `/${dbName}`;
  return u.toString();
}

/** A document with an `_id` of any type (the service uses integers and strings). */
export type AnyDoc = Document & { _id?: number | string | ObjectId | Long | Int32 | Double | Decimal128 };

/** The server error a promise rejects with (fails the test when it resolves or fails otherwise). */
export async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a server error').to.be.instanceOf(MongoServerError);
  return err as MongoServerError;
}

/** Index keys and documents the server has examined so far (serverStatus `metrics.queryExecutor`). */
export async function examined(db: Db): Promise<{ keys: number; docs: number }> {
  const status = await db.admin().command({ serverStatus: 1 });
  const executor = status.metrics.queryExecutor as { scanned: unknown; scannedObjects: unknown };
  return { keys: Number(executor.scanned), docs: Number(executor.scannedObjects) };
}

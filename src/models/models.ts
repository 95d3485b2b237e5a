import { Long } from 'bson';
import type { Document as BsonDocument, Db, Collection as DriverCollection } from 'mongodb';
import type { Collection, Connection, Document } from 'mongoose';
import type { Registry } from '../content-types/index.js';
import { ambientSession, joinAmbientTransactions } from '../database/ambient-transaction.js';
import { openWireReads, type WireReads } from '../database/wire-reads.js';
import { IdCounters } from './counters.js';
import { contentTypeSchema, type ContentModel } from './mongoose-schema.js';

/** The Mongoose model of every content-type, id counters, and index creation. */
export class Models {
  readonly counters: IdCounters;
  /**
   * Whether multi-document writes run in transactions: the database is a replica set member (its
   * `hello` names a `setName`), a mongos, or the embedded engine (its `hello` says
   * `embeddedTransactions`; started with transactions off, it does not). A standalone mongod has
   * none (it refuses them with code 20). Decided by `init()`.
   */
  transactions = false;
  /**
   * The read path's commands on the embedded engine (its `hello` says `embeddedEngine`), sent
   * without the driver's per-command machinery (src/database/wire-reads.ts); none on a real
   * MongoDB or with `ENGINE_WIRE_READS=off`. Decided by `init()`.
   */
  private wireReads: WireReads | undefined;
  private readonly models = new Map<string, ContentModel>();
  private readonly driverCollections = new Map<string, DriverCollection>();

  constructor(
    readonly connection: Connection,
    readonly registry: Registry,
  ) {
    this.counters = new IdCounters(connection);
    for (const contentType of registry.listContentTypes()) {
      const name = `${contentType.uid}`;
      const existing = connection.models[name] as ContentModel | undefined;
      const model =
        existing ?? connection.model<Record<string, unknown>>(name, contentTypeSchema(contentType, registry));
      this.models.set(contentType.uid, model);
    }
  }

  /**
   * The models again from the registry, which the app's code changed after `init()` (attributes
   * added, replaced, removed), with the collections and indexes they need; before any entry is
   * read or written.
   */
  async refresh(): Promise<void> {
    this.models.clear();
    this.driverCollections.clear();
    for (const contentType of this.registry.listContentTypes()) {
      if (this.connection.models[contentType.uid]) this.connection.deleteModel(contentType.uid);
      this.models.set(
        contentType.uid,
        this.connection.model<Record<string, unknown>>(contentType.uid, contentTypeSchema(contentType, this.registry)),
      );
    }
    await this.init();
  }

  /** The driver's database of the open connection (the service's own collections live there). */
  db(): Db {
    const { db } = this.connection;
    if (!db) throw new Error('the database connection is not open');
    return db;
  }

  model(uid: string): ContentModel {
    const model = this.models.get(uid);
    if (!model) throw new Error(`no model for ${uid}`);
    return model;
  }

  /** The native driver collection (reads run as aggregations on it). */
  collection(uid: string): Collection<Document> {
    return this.model(uid).collection as unknown as Collection<Document>;
  }

  /**
   * The first document an aggregation on `uid`'s collection yields, for reads of one document (a
   * `$limit: 1`, a `$count`): one `aggregate` command whose first batch is read from the reply,
   * without the driver's cursor object around it (its set-up, iteration and close are a good part
   * of the HTTP thread's time on a one-entry GET). Sent as the collection's own aggregations are:
   * its read preference and read concern. A cursor the server left open is closed. On the
   * embedded engine, outside a transaction, sent on the wire reads instead.
   */
  async aggregateFirst(uid: string, pipeline: BsonDocument[], maxTimeMS?: number): Promise<BsonDocument | undefined> {
    const db = this.db();
    const collection = this.driverCollection(uid, db);
    const inTransaction = ambientSession() !== undefined;
    if (this.wireReads && !inTransaction)
      return (await this.wireReads.aggregateAll(db.databaseName, collection.collectionName, pipeline, maxTimeMS))[0];
    // a command inside a transaction takes the transaction's read concern
    const readConcern = inTransaction ? undefined : collection.readConcern?.toJSON();
    const reply = await db.command(
      {
        aggregate: collection.collectionName,
        pipeline,
        cursor: {},
        ...(maxTimeMS === undefined ? {} : { maxTimeMS }),
        ...(readConcern === undefined ? {} : { readConcern }),
      },
      { readPreference: collection.readPreference },
    );
    const cursor = reply.cursor as { id: number | Long; firstBatch: BsonDocument[] };
    if (Number(cursor.id) !== 0)
      await db.command({
        killCursors: collection.collectionName,
        cursors: [typeof cursor.id === 'number' ? Long.fromNumber(cursor.id) : cursor.id],
      });
    return cursor.firstBatch[0];
  }

  /** Every document an aggregation on `uid`'s collection yields (the read path's many-entry reads). */
  async aggregate(uid: string, pipeline: BsonDocument[], maxTimeMS?: number): Promise<BsonDocument[]> {
    const wire = ambientSession() ? undefined : this.wireReads;
    if (wire) {
      const db = this.db();
      return wire.aggregateAll(db.databaseName, this.driverCollection(uid, db).collectionName, pipeline, maxTimeMS);
    }
    return this.collection(uid)
      .aggregate<BsonDocument>(pipeline, maxTimeMS === undefined ? {} : { maxTimeMS })
      .toArray();
  }

  /** The driver's own collection object (Mongoose's wrapper has no read preference nor read concern of its own). */
  private driverCollection(uid: string, db: NonNullable<Connection['db']>): DriverCollection {
    let collection = this.driverCollections.get(uid);
    if (!collection) {
      collection = db.collection(this.model(uid).collection.collectionName);
      this.driverCollections.set(uid, collection);
    }
    return collection;
  }

  /** Creates collections and indexes and learns whether transactions exist; safe to call on every start. */
  async init(): Promise<void> {
    joinAmbientTransactions(this.connection.getClient());
    const client = this.connection.getClient();
    const hello = await client.db('admin').command({ hello: 1 });
    this.transactions =
      typeof hello.setName === 'string' || hello.msg === 'isdbgrid' || hello.embeddedTransactions === true;
    if (!this.wireReads && hello.embeddedEngine === true && process.env.ENGINE_WIRE_READS !== 'off') {
      const reads = openWireReads(client);
      this.wireReads = reads;
      this.connection.once('close', () => {
        reads.close();
        if (this.wireReads === reads) this.wireReads = undefined;
      });
    }
    for (const model of this.models.values()) {
      await model.createCollection().catch((err: { code?: number }) => {
        if (err.code !== 48) throw err; // 48 NamespaceExists
      });
      await model.createIndexes();
    }
  }
}

import type { Collection, Connection, Document } from 'mongoose';
import type { Registry } from '../content-types/index.js';
import { IdCounters } from './counters.js';
import { contentTypeSchema, type ContentModel } from './mongoose-schema.js';

/** The Mongoose model of every content-type, id counters, and index creation. */
export class Models {
  readonly counters: IdCounters;
  /**
   * Whether multi-document writes run in transactions: the database is a replica set member (its
   * `hello` names a `setName`) or a mongos. A standalone server and the embedded engine have none
   * (they refuse them with code 20). Decided by `init()`.
   */
  transactions = false;
  private readonly models = new Map<string, ContentModel>();

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

  model(uid: string): ContentModel {
    const model = this.models.get(uid);
    if (!model) throw new Error(`no model for ${uid}`);
    return model;
  }

  /** The native driver collection (reads run as aggregations on it). */
  collection(uid: string): Collection<Document> {
    return this.model(uid).collection as unknown as Collection<Document>;
  }

  /** Creates collections and indexes and learns whether transactions exist; safe to call on every start. */
  async init(): Promise<void> {
    const hello = await this.connection.getClient().db('admin').command({ hello: 1 });
    this.transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    for (const model of this.models.values()) {
      await model.createCollection().catch((err: { code?: number }) => {
        if (err.code !== 48) throw err; // 48 NamespaceExists
      });
      await model.createIndexes();
    }
  }
}

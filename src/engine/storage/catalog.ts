import { valueKey } from '../bson/compare.js';
import type { Doc } from '../bson/types.js';
import { commandError } from '../errors.js';
import { Collection } from './collection.js';
import type { IndexSpec } from './secondary-index.js';

/** A change to durable state, journaled as a post-image (see journal.ts). */
export type Change =
  | { op: 'put'; db: string; coll: string; doc: Doc }
  | { op: 'del'; db: string; coll: string; id: unknown }
  | { op: 'create'; db: string; coll: string; options: Doc }
  | { op: 'drop'; db: string; coll: string }
  | { op: 'dropDatabase'; db: string }
  | { op: 'createIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'dropIndex'; db: string; coll: string; name: string }
  | { op: 'options'; db: string; coll: string; options: Doc }
  | { op: 'modifyIndex'; db: string; coll: string; spec: IndexSpec }
  | { op: 'rename'; db: string; coll: string; toDb: string; to: string };

/** Asked before each mutation; throws to refuse it (see transactions.ts: locks of open transactions). */
export interface CatalogGuard {
  /** before a document is inserted (`old` undefined), replaced, or removed (`next` undefined) */
  document(coll: Collection, old: Doc | undefined, next: Doc | undefined): void;
  /** before a write changes the documents it matched */
  matched(coll: Collection, docs: readonly Doc[]): void;
  /** before a change to a collection itself (or to every collection of `db`) */
  namespace(db: string, coll?: string): void;
}

/**
 * All databases and their collections; every mutation goes through here, is first submitted to
 * `guard`, and is reported to `record` with the function that undoes it in memory (a command
 * whose journal write fails, a transaction that aborts, are undone: see server.ts).
 */
export class Catalog {
  private readonly dbs = new Map<string, Map<string, Collection>>();
  record: (change: Change, undo: () => void) => void = () => {};
  guard: CatalogGuard | undefined;

  databases(): string[] {
    return [...this.dbs.keys()];
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** The collection, created implicitly (as inserts and createIndexes do) when missing. */
  ensure(db: string, name: string): { coll: Collection; created: boolean } {
    const existing = this.get(db, name);
    if (existing) return { coll: existing, created: false };
    return { coll: this.create(db, name, {}), created: true };
  }

  create(db: string, name: string, options: Doc): Collection {
    validateName(db, name);
    let colls = this.dbs.get(db);
    if (!colls) {
      colls = new Map();
      this.dbs.set(db, colls);
    }
    const coll = new Collection(db, name, options);
    colls.set(name, coll);
    this.record({ op: 'create', db, coll: name, options }, () => this.detach(db, name));
    return coll;
  }

  drop(db: string, name: string): boolean {
    const coll = this.get(db, name);
    if (!coll) return false;
    this.guard?.namespace(db, name);
    this.detach(db, name);
    this.record({ op: 'drop', db, coll: name }, () => this.attach(coll));
    return true;
  }

  dropDatabase(db: string): void {
    const colls = this.dbs.get(db);
    if (!colls) return;
    this.guard?.namespace(db);
    this.dbs.delete(db);
    this.record({ op: 'dropDatabase', db }, () => this.dbs.set(db, colls));
  }

  /** Before a write changes documents it matched: refused when another transaction holds one (see CatalogGuard). */
  matched(coll: Collection, docs: readonly Doc[]): void {
    this.guard?.matched(coll, docs);
  }

  insert(coll: Collection, doc: Doc): void {
    this.guard?.document(coll, undefined, doc);
    coll.insert(doc);
    this.record({ op: 'put', db: coll.db, coll: coll.name, doc }, () => coll.remove(valueKey(doc._id)));
  }

  replace(coll: Collection, id: string, doc: Doc): void {
    const old = coll.get(id);
    this.guard?.document(coll, old, doc);
    coll.replace(id, doc);
    this.record({ op: 'put', db: coll.db, coll: coll.name, doc }, () => old && coll.replace(id, old));
  }

  remove(coll: Collection, id: string): void {
    const existing = coll.get(id);
    if (!existing) return;
    this.guard?.document(coll, existing, undefined);
    const old = coll.remove(id);
    if (old) this.record({ op: 'del', db: coll.db, coll: coll.name, id: old._id }, () => coll.insert(old));
  }

  addIndex(coll: Collection, spec: IndexSpec): void {
    this.guard?.namespace(coll.db, coll.name);
    coll.addIndex(spec);
    this.record({ op: 'createIndex', db: coll.db, coll: coll.name, spec }, () => coll.dropIndex(spec.name));
  }

  dropIndex(coll: Collection, name: string): void {
    const spec = coll.index(name)?.spec;
    this.guard?.namespace(coll.db, coll.name);
    coll.dropIndex(name);
    this.record({ op: 'dropIndex', db: coll.db, coll: coll.name, name }, () => spec && coll.addIndex(spec, false));
  }

  /** Gives an index new options (same name and key), in place. */
  modifyIndex(coll: Collection, spec: IndexSpec): void {
    this.guard?.namespace(coll.db, coll.name);
    const old = coll.modifyIndex(spec);
    if (!old) return;
    this.record({ op: 'modifyIndex', db: coll.db, coll: coll.name, spec }, () => coll.modifyIndex(old));
  }

  /** Replaces a collection's options (`collMod`: validator, validation level and action...). */
  setOptions(coll: Collection, options: Doc): void {
    this.guard?.namespace(coll.db, coll.name);
    const old = coll.options;
    coll.options = options;
    this.record({ op: 'options', db: coll.db, coll: coll.name, options }, () => {
      coll.options = old;
    });
  }

  /** Moves a collection (documents, indexes, options) to another name, maybe in another database. */
  rename(coll: Collection, toDb: string, to: string): void {
    validateName(toDb, to);
    const { db, name } = coll;
    this.guard?.namespace(db, name);
    this.guard?.namespace(toDb, to);
    this.move(coll, toDb, to);
    this.record({ op: 'rename', db, coll: name, toDb, to }, () => this.move(coll, db, name));
  }

  private move(coll: Collection, toDb: string, to: string): void {
    this.detach(coll.db, coll.name);
    coll.moveTo(toDb, to);
    this.attach(coll);
  }

  private detach(db: string, name: string): void {
    const colls = this.dbs.get(db);
    if (!colls?.delete(name)) return;
    if (colls.size === 0) this.dbs.delete(db);
  }

  private attach(coll: Collection): void {
    let colls = this.dbs.get(coll.db);
    if (!colls) {
      colls = new Map();
      this.dbs.set(coll.db, colls);
    }
    colls.set(coll.name, coll);
  }

  /** Applies a journaled change at start-up (no unique checks: the journal only holds accepted writes). */
  apply(change: Change): void {
    const saved = this.record;
    this.record = () => {};
    try {
      switch (change.op) {
        case 'put': {
          const { coll } = this.ensure(change.db, change.coll);
          const existing = coll.getById(change.doc._id);
          if (existing) coll.replace(keyOf(coll, change.doc._id), change.doc);
          else coll.insert(change.doc);
          break;
        }
        case 'del': {
          const coll = this.get(change.db, change.coll);
          if (coll) coll.remove(keyOf(coll, change.id));
          break;
        }
        case 'create':
          if (!this.get(change.db, change.coll)) this.create(change.db, change.coll, change.options);
          break;
        case 'drop':
          this.drop(change.db, change.coll);
          break;
        case 'dropDatabase':
          this.dropDatabase(change.db);
          break;
        case 'createIndex': {
          const { coll } = this.ensure(change.db, change.coll);
          if (!coll.index(change.spec.name)) coll.addIndex(change.spec, false);
          break;
        }
        case 'dropIndex':
          this.get(change.db, change.coll)?.dropIndex(change.name);
          break;
        case 'modifyIndex':
          this.get(change.db, change.coll)?.modifyIndex(change.spec);
          break;
        case 'options': {
          const coll = this.get(change.db, change.coll);
          if (coll) coll.options = change.options;
          break;
        }
        case 'rename': {
          const coll = this.get(change.db, change.coll);
          if (coll) this.move(coll, change.toDb, change.to);
          break;
        }
      }
    } finally {
      this.record = saved;
    }
  }
}

function keyOf(_coll: Collection, id: unknown): string {
  return valueKey(id);
}

function validateName(db: string, name: string): void {
  if (!db || /[/\\. "$]/.test(db)) throw commandError('InvalidNamespace', `Invalid database name: '${db}'`);
  if (!name || name.includes('$') || name.startsWith('.') || name.includes('\0')) {
    throw commandError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
}

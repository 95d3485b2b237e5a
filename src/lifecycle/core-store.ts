/**
 * `strapi.store({ environment, type, name, tag })` of Strapi v4: the key-value settings store apps
 * use to remember things between starts (the official v4 templates' bootstrap keeps "has the seed
 * run" there). Keys are composed as Strapi composes them (`<type>_<name>_<key>`) and kept, with the
 * environment and tag, in Strapi's collection name; values are stored as given (JSON-like values).
 * A key Strapi's plugins write at their first start (the users-permissions advanced settings)
 * answers Strapi's default until the app writes it.
 */
import type { Connection } from 'mongoose';
import { CORE_STORE_COLLECTION, CORE_STORE_DEFAULTS } from '../plugins/users-permissions/index.js';

export interface StoreScope {
  environment?: string;
  type?: string;
  name?: string;
  tag?: string;
  key?: string;
}

export interface CoreStore {
  get(params?: StoreScope): Promise<unknown>;
  set(params: StoreScope & { value: unknown }): Promise<void>;
  delete(params?: StoreScope): Promise<void>;
}

interface StoreDocument {
  key: string;
  environment: string | null;
  tag: string | null;
  value: unknown;
}

/** Strapi's filter for one setting: the composed key, and environment and tag (null when not given). */
function filterOf(scope: StoreScope): Omit<StoreDocument, 'value'> {
  const prefix = `${scope.type ?? ''}${scope.name ? `_${scope.name}` : ''}`;
  const key = scope.key === undefined ? prefix : prefix ? `${prefix}_${scope.key}` : scope.key;
  return { key, environment: scope.environment || null, tag: scope.tag || null };
}

/** `strapi.store`: called with a scope it gives that scope's store; its own get/set/delete take the whole scope. */
export type StrapiStore = ((scope?: StoreScope) => CoreStore) & CoreStore;

export function createStrapiStore(connection: Connection): StrapiStore {
  const unscoped = createCoreStore(connection, {});
  return Object.assign((scope: StoreScope = {}) => createCoreStore(connection, scope), unscoped);
}

const indexed = new WeakMap<Connection, Promise<unknown>>();

/**
 * One document per setting, also when several instances set it at once (every instance's
 * bootstrap writing its plugin's settings on a fresh database): a unique index, created before
 * the first write of each connection. A database that already holds duplicates keeps working
 * without it (reads take the first).
 */
function uniqueSettings(connection: Connection): Promise<unknown> {
  let created = indexed.get(connection);
  if (!created) {
    created = connection
      .collection(CORE_STORE_COLLECTION)
      .createIndex({ key: 1, environment: 1, tag: 1 }, { unique: true, name: 'key_environment_tag_unique' })
      .catch((error: { code?: unknown }) => {
        if (error?.code !== 11000) throw error;
      });
    indexed.set(connection, created);
  }
  return created;
}

/** The store for one scope (what `strapi.store(scope)` returns); each call may narrow it further. */
export function createCoreStore(connection: Connection, scope: StoreScope): CoreStore {
  const settings = () => connection.collection<StoreDocument>(CORE_STORE_COLLECTION);
  return {
    async get(params = {}) {
      const filter = filterOf({ ...scope, ...params });
      const found = await settings().findOne(filter);
      if (found) return found.value;
      const fallback = filter.environment === null && filter.tag === null ? CORE_STORE_DEFAULTS[filter.key] : undefined;
      return fallback === undefined ? null : structuredClone(fallback);
    },
    async set({ value, ...params }) {
      const filter = filterOf({ ...scope, ...params });
      await uniqueSettings(connection);
      const upsert = () => settings().updateOne(filter, { $set: { ...filter, value } }, { upsert: true });
      // two first writes of one setting: the one that lost the insert updates the winner's document
      await upsert().catch((error: { code?: unknown }) => {
        if (error?.code === 11000) return upsert();
        throw error;
      });
    },
    async delete(params = {}) {
      await settings().deleteOne(filterOf({ ...scope, ...params }));
    },
  };
}

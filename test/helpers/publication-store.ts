import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Aggregator } from 'mingo';
import {
  loadSchemas,
  Registry,
  type Attribute,
  type Component,
  type ContentType,
} from '../../src/content-types/index.js';
import type { ServiceContext } from '../../src/service-context.js';
import { UNRESTRICTED, type QueryAccess } from '../../src/query/access.js';
import { compileFilters, type PipelineStage } from '../../src/query/filters/index.js';
import { compileSort } from '../../src/query/sort/index.js';
import { PUBLICATION_APP } from './fixtures.js';

/**
 * The conformance seed (test/fixtures/publication/seed.json) laid out as it is stored in MongoDB
 * (docs/ARCHITECTURE.md), in memory: collectionName → documents. For unit tests that run compiled
 * pipelines with mingo, without a database.
 */
export type Store = Record<string, Record<string, unknown>[]>;

interface SeedOperation {
  contentType?: string;
  body?: Record<string, unknown>;
  expectId?: number;
  localizationOf?: number;
  locale?: string;
  updateId?: number;
  single?: boolean;
}

export function publicationRegistry(): Registry {
  const loaded = loadSchemas(PUBLICATION_APP);
  return Registry.build(loaded.contentTypes, loaded.components, { i18n: true });
}

export interface StoreOptions {
  /** biginteger values as BigInt (int64 in MongoDB, for a real database) instead of numbers (for mingo) */
  bigints?: boolean;
}

export function publicationStore(registry: Registry, options: StoreOptions = {}): Store {
  const seedPath = fileURLToPath(new URL('../fixtures/publication/seed.json', import.meta.url));
  const { operations } = JSON.parse(readFileSync(seedPath, 'utf8')) as { operations: SeedOperation[] };
  const store: Store = {};
  const componentIds = new Map<string, number>();
  const now = new Date();
  for (const op of operations) {
    if (!op.contentType || op.single || !op.body) continue;
    const ct = registry.byPluralName(op.contentType);
    if (!ct) continue;
    const docs = (store[ct.collectionName] ??= []);
    if (op.updateId !== undefined) {
      const doc = docs.find((d) => d._id === op.updateId);
      if (doc) Object.assign(doc, toStorage(registry, ct, op.body, componentIds, options));
      continue;
    }
    const doc: Record<string, unknown> = { _id: op.expectId ?? docs.length + 1 };
    applyDefaults(ct, doc);
    if (op.localizationOf !== undefined) {
      const source = docs.find((d) => d._id === op.localizationOf);
      if (source) {
        for (const [name, attribute] of Object.entries(ct.attributes)) {
          const localized = attribute.pluginOptions?.i18n?.localized === true;
          if (
            !localized &&
            attribute.type !== 'relation' &&
            attribute.type !== 'component' &&
            attribute.type !== 'dynamiczone' &&
            name in source
          )
            doc[name] = source[name];
        }
        doc.localeGroup = source.localeGroup;
      }
      doc.publishedAt = null;
    }
    Object.assign(doc, toStorage(registry, ct, op.body, componentIds, options));
    if (ct.draftAndPublish && op.localizationOf === undefined && !('publishedAt' in op.body)) doc.publishedAt = now;
    if (ct.localized) {
      doc.locale = op.locale ?? (op.body.locale as string | undefined) ?? 'en';
      doc.localeGroup ??= doc._id;
    }
    doc.createdAt = now;
    doc.updatedAt = now;
    docs.push(doc);
  }
  return store;
}

function applyDefaults(schema: ContentType | Component, doc: Record<string, unknown>): void {
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if ('default' in attribute && attribute.default !== undefined) doc[name] = attribute.default;
  }
}

function toStorage(
  registry: Registry,
  schema: ContentType | Component,
  body: Record<string, unknown>,
  componentIds: Map<string, number>,
  options: StoreOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const attribute: Attribute | undefined = schema.attributes[name];
    if (!attribute) continue;
    out[name] = storedValue(registry, attribute, value, componentIds, options);
  }
  return out;
}

function storedValue(
  registry: Registry,
  attribute: Attribute,
  value: unknown,
  componentIds: Map<string, number>,
  options: StoreOptions,
): unknown {
  if (value === null || value === undefined) return null;
  switch (attribute.type) {
    case 'datetime':
    case 'timestamp':
      return new Date(String(value));
    case 'biginteger':
      // an int64 in MongoDB; mingo compares numbers only, and the seed's values are safe integers
      return options.bigints ? BigInt(String(value)) : Number(value);
    case 'component': {
      const component = registry.component(attribute.component);
      if (!component) return null;
      const one = (item: Record<string, unknown>) => {
        const id = (componentIds.get(component.uid) ?? 0) + 1;
        componentIds.set(component.uid, id);
        const doc: Record<string, unknown> = { id };
        applyDefaults(component, doc);
        return Object.assign(doc, toStorage(registry, component, item, componentIds, options));
      };
      return attribute.repeatable
        ? (value as Record<string, unknown>[]).map(one)
        : one(value as Record<string, unknown>);
    }
    default:
      return value;
  }
}

/**
 * A `find` reduced to what filters and sort need, on mingo: published entries only unless
 * `publicationState=preview`, the default locale, then the compiled filters and sort. Returns ids in order.
 */
export function runFind(
  registry: Registry,
  store: Store,
  plural: string,
  query: Record<string, unknown>,
  access: QueryAccess = UNRESTRICTED,
): number[] {
  const ct = registry.byPluralName(plural);
  if (!ct) throw new Error(`no content-type ${plural}`);
  const scope: Record<string, unknown> = {};
  if (ct.draftAndPublish && query.publicationState !== 'preview') scope.publishedAt = { $ne: null };
  if (ct.localized) scope.locale = 'en';
  const filters = compileFilters({ registry, uid: ct.uid, filters: query.filters, access });
  const sort = compileSort({ registry, uid: ct.uid, sort: query.sort, access });
  const pipeline: PipelineStage[] = [
    { $match: scope },
    ...filters,
    ...sort.lookups,
    { $sort: sort.sort },
    ...sort.cleanup,
    { $project: { _id: 1 } },
  ];
  const aggregator = new Aggregator(promoteBigInts(pipeline), {
    collectionResolver: (name: string) => store[name] ?? [],
  });
  return aggregator.run(store[ct.collectionName] ?? []).map((doc) => Number((doc as { _id: unknown })._id));
}

/** The driver sends a BigInt as an int64, which the server compares as a number; mingo cannot take BigInts. */
function promoteBigInts<T>(value: T): T {
  if (typeof value === 'bigint') return Number(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => promoteBigInts(item)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof RegExp)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, promoteBigInts(item)])) as T;
  }
  return value;
}

/** A service whose collections can be written directly (the shape of `ContentService.context`). */
export interface SeedTarget {
  context: Pick<ServiceContext, 'registry' | 'connection'>;
}

/** Writes the conformance seed straight into the service's collections, in the storage layout (ids as in seed.json). */
export async function insertPublicationSeed(service: SeedTarget): Promise<Store> {
  const { registry, connection } = service.context;
  const store = publicationStore(registry, { bigints: true });
  const db = connection.db;
  if (!db) throw new Error('database not connected');
  for (const ct of registry.listContentTypes()) {
    const docs = store[ct.collectionName];
    if (docs && docs.length > 0) await db.collection(ct.collectionName).insertMany(docs.map((doc) => ({ ...doc })));
  }
  return store;
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { Long } from 'mongodb';
import type { Attribute, Component, ContentType, Registry, Schema } from '../../src/content-types/index.js';
import { componentCounterKey } from '../../src/models/index.js';
import type { ServiceContext } from '../../src/service-context.js';
import { createCommandCountingService, type TestService } from './server.js';

/**
 * Loads test/fixtures/publication/seed.json (the conformance seed) into a service's database
 * directly in the storage layout of docs/ARCHITECTURE.md, without going through REST: ids 1..n
 * per content-type in creation order, component ids per component uid, `localeGroup`, Draft &
 * Publish and timestamps as the write path stores them, and the id counters moved past what was
 * loaded so later creates continue. `register` operations (users) are skipped.
 */
export async function seedPublication(context: ServiceContext, seedFile = defaultSeedFile()): Promise<void> {
  const loader = loadSeed(context.registry, seedFile);
  const db = context.connection.db;
  if (!db) throw new Error('database not connected');
  for (const [uid, docs] of loader.documents) {
    const collectionName = context.registry.contentType(uid)?.collectionName ?? uid;
    if (docs.length > 0) await db.collection<Doc>(collectionName).insertMany(docs);
  }
  const counters = db.collection<{ _id: string; seq: number }>('counters');
  for (const [key, seq] of loader.counters) {
    await counters.updateOne({ _id: key }, { $max: { seq } }, { upsert: true });
  }
}

/** The seed in storage layout, in memory: uid → documents, and counter key → last id used (for runs without a database, e.g. on mingo). */
export function seedDocuments(
  registry: Registry,
  seedFile = defaultSeedFile(),
): { documents: Map<string, Doc[]>; counters: Map<string, number> } {
  const loader = loadSeed(registry, seedFile);
  return { documents: loader.documents, counters: loader.counters };
}

function loadSeed(registry: Registry, seedFile: string): SeedLoader {
  const { operations } = JSON.parse(readFileSync(seedFile, 'utf8')) as { operations: SeedOperation[] };
  const loader = new SeedLoader(registry);
  for (const operation of operations) loader.apply(operation);
  return loader;
}

export function defaultSeedFile(): string {
  return fileURLToPath(new URL('../fixtures/publication/seed.json', import.meta.url));
}

interface SeedOperation {
  contentType?: string;
  body?: Record<string, unknown>;
  expectId?: number;
  localizationOf?: number;
  locale?: string;
  updateId?: number;
  single?: boolean;
  register?: boolean;
}

type Doc = Record<string, unknown>;

class SeedLoader {
  /** uid → documents in insertion order */
  readonly documents = new Map<string, Doc[]>();
  /** counter key → last id used */
  readonly counters = new Map<string, number>();
  private readonly now = new Date();

  constructor(private readonly registry: Registry) {}

  apply(operation: SeedOperation): void {
    if (operation.register || !operation.contentType || !operation.body) return;
    const schema =
      this.registry.byPluralName(operation.contentType) ?? this.registry.bySingularName(operation.contentType);
    if (!schema) throw new Error(`seed: unknown content-type ${operation.contentType}`);
    const docs = this.docs(schema.uid);
    if (operation.updateId !== undefined || (operation.single && docs.length > 0)) {
      const doc = operation.single ? docs[0] : docs.find((candidate) => candidate._id === operation.updateId);
      if (!doc) throw new Error(`seed: no ${schema.uid} ${String(operation.updateId)} to update`);
      Object.assign(doc, this.stored(schema, operation.body), { updatedAt: this.now });
      return;
    }
    const id = this.nextId(schema.collectionName);
    if (operation.expectId !== undefined && operation.expectId !== id)
      throw new Error(`seed: ${schema.uid} got id ${id}, expected ${operation.expectId}`);
    const doc: Doc = { _id: id };
    const source =
      operation.localizationOf === undefined
        ? undefined
        : docs.find((candidate) => candidate._id === operation.localizationOf);
    if (source) copyUnlocalized(schema, source, doc);
    Object.assign(doc, this.withDefaults(schema, this.stored(schema, operation.body), source !== undefined));
    if (schema.draftAndPublish) {
      if (source) doc.publishedAt = null;
      else if (!('publishedAt' in operation.body)) doc.publishedAt = this.now;
    }
    if (schema.localized) {
      doc.locale = operation.locale ?? (typeof operation.body.locale === 'string' ? operation.body.locale : 'en');
      doc.localeGroup = source ? source.localeGroup : id;
    }
    doc.createdAt = this.now;
    doc.updatedAt = this.now;
    docs.push(doc);
  }

  private docs(uid: string): Doc[] {
    let docs = this.documents.get(uid);
    if (!docs) this.documents.set(uid, (docs = []));
    return docs;
  }

  private nextId(key: string): number {
    const id = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, id);
    return id;
  }

  private withDefaults(schema: Schema, stored: Doc, localization: boolean): Doc {
    const out: Doc = {};
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (localization && !(name in stored)) continue;
      if ('default' in attribute && attribute.default !== undefined && !(name in stored)) out[name] = attribute.default;
    }
    return { ...out, ...stored };
  }

  private stored(schema: Schema, body: Doc): Doc {
    const out: Doc = {};
    for (const [name, value] of Object.entries(body)) {
      const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
      if (!attribute || name === 'locale' || name === 'localizations') continue;
      if (attribute.type === 'relation' && !schema.relations[name]?.stored) continue;
      out[name] = this.storedValue(attribute, value);
    }
    return out;
  }

  private storedValue(attribute: Attribute, value: unknown): unknown {
    if (value === null || value === undefined)
      return attribute.type === 'component' && attribute.repeatable ? [] : null;
    switch (attribute.type) {
      case 'datetime':
      case 'timestamp':
        return new Date(String(value));
      case 'biginteger':
        return Long.fromString(String(value));
      case 'password':
        return bcrypt.hashSync(String(value), 4);
      case 'relation':
      case 'media':
        return Array.isArray(value) ? value.map(Number) : Number(value);
      case 'component': {
        const component = this.component(attribute.component);
        return attribute.repeatable
          ? asDocs(value).map((item) => this.componentDoc(component, item))
          : this.componentDoc(component, value as Doc);
      }
      case 'dynamiczone':
        return asDocs(value).map((item) => {
          const uid = String(item.__component);
          return { ...this.componentDoc(this.component(uid), item), __component: uid };
        });
      default:
        return value;
    }
  }

  private componentDoc(component: Component, item: Doc): Doc {
    const id = this.nextId(componentCounterKey(component.uid));
    return { id, ...this.withDefaults(component, this.stored(component, item), false) };
  }

  private component(uid: string): Component {
    const component = this.registry.component(uid);
    if (!component) throw new Error(`seed: unknown component ${uid}`);
    return component;
  }
}

/** The i18n plugin copies the non-localized scalar attributes of the source to a new localization. */
function copyUnlocalized(schema: ContentType, source: Doc, doc: Doc): void {
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const localized = attribute.pluginOptions?.i18n?.localized === true;
    const copyable =
      attribute.type !== 'relation' &&
      attribute.type !== 'media' &&
      attribute.type !== 'component' &&
      attribute.type !== 'dynamiczone';
    if (!localized && copyable && name in source && !['createdAt', 'updatedAt', 'publishedAt', 'locale'].includes(name))
      doc[name] = source[name];
  }
}

function asDocs(value: unknown): Doc[] {
  return Array.isArray(value) ? value.filter((item): item is Doc => item !== null && typeof item === 'object') : [];
}

/** A command-counting test service (see server.ts) holding the publication seed. */
export async function seededCommandCountingService(): Promise<{ service: TestService; commands: string[] }> {
  const counting = await createCommandCountingService();
  await seedPublication(counting.service.context);
  return counting;
}

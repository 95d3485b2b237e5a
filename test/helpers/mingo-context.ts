import { Aggregator } from 'mingo';
import { loadSchemas, Registry } from '../../src/content-types/index.js';
import type { OperationContext } from '../../src/operations/context.js';
import { UNRESTRICTED, type QueryAccess } from '../../src/query/access.js';
import { PUBLICATION_APP } from './fixtures.js';
import { seedDocuments } from './seed.js';

type Doc = Record<string, unknown>;

/**
 * An OperationContext whose collections are the seed in storage layout held in memory, and whose
 * `aggregate` runs the pipeline with mingo: for unit tests of the read path without a database.
 * `commands` counts the aggregations run.
 */
export function mingoContext(access: QueryAccess = UNRESTRICTED): OperationContext & { commands: { count: number } } {
  const loaded = loadSchemas(PUBLICATION_APP);
  const registry = Registry.build(loaded.contentTypes, loaded.components, { i18n: true });
  const byCollection: Record<string, Doc[]> = {};
  for (const [uid, docs] of seedDocuments(registry).documents) {
    const name = registry.contentType(uid)?.collectionName ?? uid;
    byCollection[name] = docs.map(promoteLongs);
  }
  const commands = { count: 0 };
  const models = {
    collection(uid: string) {
      const name = registry.contentType(uid)?.collectionName ?? uid;
      return {
        aggregate(pipeline: Doc[]) {
          commands.count += 1;
          const emulated = pipeline.map(emulateJoinLookups);
          return {
            toArray: async () =>
              new Aggregator(emulated, { collectionResolver: (from: string) => byCollection[from] ?? [] }).run(
                byCollection[name] ?? [],
              ),
          };
        },
      };
    },
  };
  const context = {
    config: {
      api: {
        rest: { defaultLimit: 25, maxLimit: 100, withCount: true, maxPopulateDepth: 10, maxPopulateRelations: 100 },
      },
    },
    registry,
    models,
    i18n: {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
      ],
    },
    access,
    commands,
  };
  return context as unknown as OperationContext & { commands: { count: number } };
}

/** mingo compares plain numbers only: int64 values (biginteger) as numbers, as the driver promotes them. */
function promoteLongs(doc: Doc): Doc {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (value !== null && typeof value === 'object' && (value as { _bsontype?: string })._bsontype === 'Long')
      return Number(String(value));
    if (value !== null && typeof value === 'object' && !(value instanceof Date))
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, visit(inner)]));
    return value;
  };
  return visit(doc) as Doc;
}

/**
 * mingo ignores `localField`/`foreignField` when a `$lookup` also has a `pipeline` (MongoDB 5.0+
 * joins on both): state the equality join as a leading `$match` with `$expr`, with MongoDB's
 * semantics (either side may be an array; any common value joins), in nested pipelines too.
 */
function emulateJoinLookups(stage: Doc): Doc {
  const lookup = stage.$lookup as Doc | undefined;
  if (
    !lookup ||
    typeof lookup.localField !== 'string' ||
    typeof lookup.foreignField !== 'string' ||
    !Array.isArray(lookup.pipeline)
  )
    return stage;
  const { localField, foreignField, pipeline, ...rest } = lookup;
  const asArray = (value: string) => ({ $cond: [{ $isArray: value }, value, [value]] });
  const join = {
    $match: {
      $expr: { $gt: [{ $size: { $setIntersection: [asArray(`$${foreignField}`), asArray('$$__local')] } }, 0] },
    },
  };
  return {
    $lookup: {
      ...rest,
      let: { ...(rest.let as Doc | undefined), __local: { $ifNull: [`$${localField}`, []] } },
      pipeline: [join, ...(pipeline as Doc[]).map(emulateJoinLookups)],
    },
  };
}

import { Aggregator } from 'mingo/aggregator';
import { cloneDoc } from '../bson/clone.js';
import { compareStrings } from '../bson/compare.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { CommandError, commandError, toCommandError } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { seenDocuments, type OverlayOf } from '../storage/overlay.js';
import { collationCompare } from './collation.js';
import { compileFilter } from './filter.js';
import { lookupStage, semiJoinLength, semiJoinStage } from './lookup.js';
import { joinedSortLength, joinedSortStage } from './joined-sort.js';
import { computedSortLength, computedSortStage } from './computed-sort.js';
import { linkOrderWindow } from './link-order-window.js';
import { MINGO_STAGES, mingoOptions, plainOptions } from './operators.js';
import { allDocuments, countMatches, matches, sortedMatches, type Hint } from './plan.js';
import { normalizeRegexes } from './regex.js';
import { simpleProjection } from './simple-projection.js';
import { projectionOrder } from './projection-order.js';
import { addFieldsStage } from './add-fields.js';
import { checkpoint, filterWork, finish, mapWork, tick, type Work } from '../work.js';
import { parseSort, sortDocs, type SortSpec } from './sort.js';

export interface PipelineEnv {
  /** Collections of the database the pipeline runs in (for `$lookup`, `$unionWith`, `$graphLookup`). */
  resolve(name: string): Collection | undefined;
  /** what the command reads instead of other transactions' uncommitted writes (none: the stored documents) */
  overlay?: OverlayOf;
  collation?: unknown;
  variables?: Doc;
  /**
   * The results of `$lookup` sub-pipelines by stage and join values, for one command: a stage
   * object may come again in another command (protocol/stage-cache.ts), whose reads see later writes.
   */
  joinMemos?: Map<object, Map<string, Doc[]>>;
}

/** Stages mingo runs that never change their input documents (their output may share them). */
const READ_ONLY_STAGES = new Set([
  '$project',
  '$unset',
  '$group',
  '$count',
  '$sortByCount',
  '$bucket',
  '$bucketAuto',
  '$unionWith',
  '$graphLookup',
  '$sample',
  '$documents',
]);
/** mingo stages whose output for a document depends on that document alone: run in chunks, yielding between them. */
const PER_DOCUMENT_STAGES = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$unwind',
  '$redact',
]);
const CHUNK = 256;
const UNSUPPORTED_STAGES = new Set([
  '$out',
  '$merge',
  '$search',
  '$searchMeta',
  '$vectorSearch',
  '$geoNear',
  '$changeStream',
  '$currentOp',
  '$listSessions',
  '$planCacheStats',
]);

/**
 * Runs an aggregation pipeline. Source documents are the stored ones and are never modified:
 * documents are deep-copied before the first stage that could change them ("owned" tracking).
 * `$match` at the start uses indexes, `$sort` + `$limit` is a top-k sort, `$lookup` is the
 * engine's own (index look-ups per outer document), `$facet` recurses; the rest is mingo's.
 */
export function runPipeline(source: Collection | Doc[], pipeline: unknown, env: PipelineEnv): Doc[] {
  return finish(pipelineWork(source, pipeline, env));
}

/**
 * `runPipeline` as cooperative work: yields between slices (see work.ts), also inside `$lookup`
 * sub-pipelines. `hint` (the command's) imposes the access path of the leading `$match`.
 */
export function* pipelineWork(
  source: Collection | Doc[],
  pipeline: unknown,
  env: PipelineEnv,
  hint?: Hint,
): Work<Doc[]> {
  if (!Array.isArray(pipeline)) throw commandError('TypeMismatch', "'pipeline' option must be specified as an array");
  const stages = coalesceMatches(pipeline.map(checkStage));
  let docs: Doc[];
  let owned = false;
  let start = 0;
  if (Array.isArray(source)) {
    docs = source;
  } else if (stages[0]?.name === '$match' && !env.collation) {
    // the leading $match (with a $sort and window, or a count) is planned on the indexes
    const filter = stages[0].spec;
    const predicate = compileFilter(filter, env);
    const next = stages[1];
    const countField = countStageField(next);
    const overlay = env.overlay?.(source);
    const linkWindow = countField === undefined && hint === undefined ? topK(stages, 3) : undefined;
    const walked =
      linkWindow !== undefined ? yield* linkOrderWindow(source, filter, predicate, stages, linkWindow, env) : undefined;
    if (walked) {
      docs = walked;
      start = 3;
    } else if (countField !== undefined) {
      const n = yield* countMatches(source, filter, predicate, hint, overlay);
      docs = n > 0 ? [{ ...(next.name === '$group' ? { _id: (next.spec as Doc)._id } : {}), [countField]: n }] : [];
      owned = true;
      start = 2;
    } else if (next?.name === '$sort' && parseSort(next.spec)) {
      const sort = parseSort(next.spec) as SortSpec;
      docs = yield* sortedMatches(source, filter, predicate, sort, topK(stages, 2), compareStrings, hint, overlay);
      start = 2;
    } else {
      docs = yield* matches(source, filter, predicate, undefined, hint, overlay);
      start = 1;
    }
  } else {
    docs = allDocuments(source, env.overlay?.(source));
  }
  const strings = env.collation ? collationCompare(env.collation) : compareStrings;
  for (let i = start; i < stages.length; i++) {
    const { name, spec } = stages[i];
    if (checkpoint()) yield;
    try {
      switch (name) {
        case '$match':
          docs = yield* filterWork(docs, compileFilter(spec, env));
          break;
        case '$sort': {
          const sort = parseSort(spec);
          if (!sort) break;
          const limit = topK(stages, i + 1);
          docs = sortDocs(docs, sort, limit, strings);
          tick(docs.length);
          break;
        }
        case '$skip':
          docs = docs.slice(nonNegative(name, spec));
          break;
        case '$limit': {
          const n = nonNegative(name, spec);
          if (n === 0) throw commandError('BadValue', 'the limit must be positive', { code: 15958 });
          docs = docs.slice(0, n);
          break;
        }
        case '$count': {
          if (typeof spec !== 'string' || spec === '' || spec.startsWith('$') || spec.includes('.')) {
            throw commandError(
              'BadValue',
              'the count field must be a non-empty string, not start with $ and not contain .',
              { code: 40156 },
            );
          }
          docs = docs.length ? [{ [spec]: docs.length }] : [];
          owned = true;
          break;
        }
        case '$lookup': {
          const span = semiJoinLength(stages, i);
          if (span > 0) {
            docs = yield* semiJoinStage(docs, spec, env, pipelineWork);
            i += span - 1;
            break;
          }
          const sorted = joinedSortLength(stages, i);
          const window = sorted > 0 ? topK(stages, i + sorted) : undefined;
          if (window !== undefined) {
            docs = yield* joinedSortStage(docs, stages, i, window, env, pipelineWork, strings);
            i += sorted - 1;
            owned = false;
            break;
          }
          docs = yield* lookupStage(docs, spec, env, pipelineWork);
          owned = false;
          break;
        }
        case '$facet': {
          if (!isPlainObject(spec))
            throw commandError('BadValue', 'the $facet specification must be a non-empty object', { code: 15947 });
          const out: Doc = {};
          for (const [field, sub] of Object.entries(spec)) out[field] = yield* pipelineWork(docs, sub, env);
          docs = [out];
          owned = false;
          break;
        }
        default: {
          const fastProjection = name === '$project' ? simpleProjection(spec) : undefined;
          if (fastProjection) {
            docs = yield* mapWork(docs, fastProjection);
            owned = false;
            break;
          }
          const computed = computedSortLength(stages, i);
          const computedWindow = computed > 0 ? topK(stages, i + computed) : undefined;
          if (computedWindow !== undefined) {
            docs = yield* computedSortStage(docs, stages, i, computedWindow, env, strings);
            i += computed - 1;
            owned = false;
            break;
          }
          const addFields = name === '$addFields' || name === '$set' ? addFieldsStage(name, spec) : undefined;
          if (addFields) {
            const options = mingoOptions(env);
            docs = yield* mapWork(docs, (d) => addFields(d, options));
            owned = false;
            break;
          }
          const readOnly = READ_ONLY_STAGES.has(name) && !removesNestedFields(name, spec);
          if (!readOnly && !owned) {
            docs = yield* mapWork(docs, cloneDoc);
            owned = true;
          }
          // mingo's prepared options carry the engine's context and the `let` variables; spreading
          // them would drop both (mingo would fall back to its global registry), so pass them whole
          const needsResolver = name === '$unionWith' || name === '$graphLookup';
          const agg = new Aggregator(
            [{ [name]: normalizeRegexes(spec) }],
            needsResolver
              ? { ...plainOptions(env), collectionResolver: (coll: string) => resolvedDocuments(env, coll) }
              : mingoOptions(env),
          );
          const input = docs;
          docs = PER_DOCUMENT_STAGES.has(name) ? yield* inChunks(docs, agg) : (agg.run(docs) as Doc[]);
          const order = name === '$project' ? projectionOrder(spec) : undefined;
          if (order) docs = docs.map((d, k) => order(input[k] as Doc, d));
          tick(docs.length);
          if (readOnly) owned = false;
        }
      }
    } catch (err) {
      throw err instanceof CommandError ? err : toCommandError(err);
    }
  }
  return docs;
}

/** The documents of a collection `$unionWith` or `$graphLookup` names, as the command sees them. */
function resolvedDocuments(env: PipelineEnv, name: string): Doc[] {
  const coll = env.resolve(name);
  return coll ? seenDocuments(coll, env.overlay?.(coll)) : [];
}

/**
 * mingo's `$unset` and exclusion `$project` delete fields of embedded documents in place, in the
 * input document: such a stage must run on copies like the stages that modify documents.
 */
function removesNestedFields(name: string, spec: unknown): boolean {
  if (name === '$unset')
    return (Array.isArray(spec) ? spec : [spec]).some((f) => typeof f !== 'string' || f.includes('.'));
  if (name !== '$project' || !isPlainObject(spec)) return false;
  const excludes = (v: unknown): boolean =>
    v === 0 || v === false || (isPlainObject(v) && Object.values(v).some(excludes));
  return Object.entries(spec).some(
    ([path, v]) => (path.includes('.') && excludes(v)) || (isPlainObject(v) && excludes(v)),
  );
}

function* inChunks(docs: Doc[], agg: Aggregator): Work<Doc[]> {
  if (docs.length <= CHUNK) return agg.run(docs) as Doc[];
  const out: Doc[] = [];
  for (let i = 0; i < docs.length; i += CHUNK) {
    for (const d of agg.run(docs.slice(i, i + CHUNK)) as Doc[]) out.push(d);
    if (tick(CHUNK)) yield;
  }
  return out;
}

export function checkStage(stage: unknown): { name: string; spec: unknown } {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
    throw new CommandError(
      40323,
      'Location40323',
      'A pipeline stage specification object must contain exactly one field.',
    );
  }
  const name = Object.keys(stage)[0];
  if (name === '$collStats' || name === '$indexStats')
    throw new CommandError(40602, 'Location40602', `${name} is only valid as the first stage in a pipeline`);
  if (UNSUPPORTED_STAGES.has(name)) {
    throw commandError('CommandNotSupported', `${name} is not supported by the embedded engine`);
  }
  const handled = ['$match', '$sort', '$skip', '$limit', '$count', '$lookup', '$facet'];
  if (!handled.includes(name) && !MINGO_STAGES.has(name)) {
    throw new CommandError(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`);
  }
  return { name, spec: stage[name] };
}

function nonNegative(name: string, spec: unknown): number {
  const n =
    typeof spec === 'number'
      ? spec
      : typeof spec === 'object' && spec !== null && 'toNumber' in spec
        ? Number(spec.toString())
        : Number.NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw commandError(
      'BadValue',
      `invalid argument to ${name} stage: Expected a non-negative number in: ${name}: ${String(spec)}`,
      { code: name === '$skip' ? 15956 : 15957 },
    );
  }
  return n;
}

/**
 * Adjacent `$match` stages become one `{ $and: [...] }` (as MongoDB's optimizer does), so a
 * filter that follows the first `$match` still gets index selection and the `_id` walk.
 */
export function coalesceMatches(
  stages: Array<{ name: string; spec: unknown }>,
): Array<{ name: string; spec: unknown }> {
  const out: Array<{ name: string; spec: unknown }> = [];
  for (const stage of stages) {
    const previous = out[out.length - 1];
    if (
      stage.name === '$match' &&
      previous?.name === '$match' &&
      isPlainObject(stage.spec) &&
      isPlainObject(previous.spec)
    ) {
      const left = previous.spec;
      const right = stage.spec;
      if (Object.keys(right).length === 0) continue;
      previous.spec = Object.keys(left).length === 0 ? right : { $and: [left, right] };
      continue;
    }
    out.push({ ...stage });
  }
  return out;
}

/** With `$sort` followed by `$skip`s and a `$limit`, only the first skip + limit documents are needed. */
function topK(stages: Array<{ name: string; spec: unknown }>, from: number): number | undefined {
  let skip = 0;
  for (let i = from; i < stages.length; i++) {
    const { name, spec } = stages[i];
    if (name === '$skip' && typeof spec === 'number') {
      skip += spec;
      continue;
    }
    if (name === '$limit' && typeof spec === 'number' && spec > 0) return skip + spec;
    return undefined;
  }
  return undefined;
}

/**
 * The output field of a stage that only counts its input: `{ $count: 'n' }`, or the driver's
 * countDocuments `{ $group: { _id: <constant>, n: { $sum: 1 } } }`.
 */
export function countStageField(stage: { name: string; spec: unknown } | undefined): string | undefined {
  if (!stage) return undefined;
  if (stage.name === '$count') {
    const field = stage.spec;
    return typeof field === 'string' && field !== '' && !field.startsWith('$') && !field.includes('.')
      ? field
      : undefined;
  }
  if (stage.name !== '$group' || !isPlainObject(stage.spec)) return undefined;
  const { _id: id, ...rest } = stage.spec;
  const names = Object.keys(rest);
  if (names.length !== 1 || !(id === null || typeof id === 'number')) return undefined;
  const sum = rest[names[0]];
  return isPlainObject(sum) && Object.keys(sum).length === 1 && sum.$sum === 1 ? names[0] : undefined;
}

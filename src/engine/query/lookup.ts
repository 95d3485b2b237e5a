import { valueKey } from '../bson/compare.js';
import { getPath, pathValues } from '../bson/path.js';
import { isPlainObject, type Doc } from '../bson/types.js';
import { evalExpr } from 'mingo/core';
import { commandError } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { seenDocuments, type Overlay, type OverlayOf } from '../storage/overlay.js';
import { mingoOptions } from './operators.js';
import { simpleProjection } from './simple-projection.js';
import { frozenMemo } from './frozen-memo.js';
import { isKeyScalar } from './index-bounds.js';
import { candidates, equalTo } from './plan.js';
import { isWork, tick, type Work } from '../work.js';
import type { PipelineEnv } from './pipeline.js';

export type RunPipeline = (source: Collection | Doc[], pipeline: unknown, env: PipelineEnv) => Work<Doc[]>;

/** The joined documents of one outer document: known at once (index look-up, memo) or a sub-pipeline to run. */
type Joined = Doc[] | Work<Doc[]>;

interface LookupSpec {
  from: string;
  as: string;
  localField?: string;
  foreignField?: string;
  let?: Doc;
  pipeline?: unknown[];
}

const parseSpec = frozenMemo(parseNewSpec);

function parseNewSpec(spec: unknown): LookupSpec {
  if (!isPlainObject(spec))
    throw commandError('FailedToParse', 'the $lookup specification must be an Object', { code: 40319 });
  const { from, as, localField, foreignField, pipeline } = spec;
  if (typeof from !== 'string')
    throw commandError('FailedToParse', "$lookup 'from' field must be a string", { code: 40321 });
  if (typeof as !== 'string')
    throw commandError('FailedToParse', "must specify 'as' field for a $lookup", { code: 40321 });
  if ((localField === undefined) !== (foreignField === undefined)) {
    throw commandError(
      'FailedToParse',
      '$lookup requires both or neither of localField and foreignField to be specified',
      { code: 40321 },
    );
  }
  if (localField === undefined && pipeline === undefined) {
    throw commandError(
      'FailedToParse',
      "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
      { code: 40321 },
    );
  }
  if (pipeline !== undefined && !Array.isArray(pipeline))
    throw commandError('FailedToParse', "'pipeline' option must be specified as an array");
  if (spec.let !== undefined && !isPlainObject(spec.let))
    throw commandError('FailedToParse', "$lookup argument 'let' must be an object");
  return {
    from,
    as,
    localField: localField as string | undefined,
    foreignField: foreignField as string | undefined,
    let: spec.let as Doc | undefined,
    pipeline: pipeline as unknown[] | undefined,
  };
}

/**
 * `$lookup` in its three forms. Equality joins use the foreign collection's index on
 * `foreignField` (or one hash table per stage); `let` + `pipeline` joins whose first `$match` is
 * `$expr: {$in: ['$f', '$$v']}` / `{$eq: ['$f', '$$v']}` on an indexed `f` start from an index
 * look-up instead of scanning the foreign collection for every outer document.
 */
export function* lookupStage(docs: Doc[], rawSpec: unknown, env: PipelineEnv, run: RunPipeline): Work<Doc[]> {
  const spec = parseSpec(rawSpec);
  const join = joiner(spec, env, run, rawSpec);
  const out: Doc[] = new Array<Doc>(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const outer = docs[i] as Doc;
    const joined = join(outer);
    out[i] = { ...outer, [spec.as]: isWork(joined) ? yield* joined : joined };
    if (tick()) yield;
  }
  return out;
}

/**
 * `$lookup` followed by `$match: { <as>: { $ne: [] } }` and `$project: { <as>: 0 }` (a filter
 * through another collection): the outer documents that join with something, unchanged. Same
 * answer as the three stages, without building a new document per outer document.
 */
export function* semiJoinStage(docs: Doc[], rawSpec: unknown, env: PipelineEnv, run: RunPipeline): Work<Doc[]> {
  const join = joiner(parseSpec(rawSpec), env, run, rawSpec);
  const out: Doc[] = [];
  for (const outer of docs) {
    const joined = join(outer);
    if ((isWork(joined) ? yield* joined : joined).length > 0) out.push(outer);
    if (tick()) yield;
  }
  return out;
}

/** If stages[i] starts a semi-join (see semiJoinStage), how many stages it spans. */
export function semiJoinLength(stages: Array<{ name: string; spec: unknown }>, i: number): number {
  const [lookup, match, project] = [stages[i], stages[i + 1], stages[i + 2]];
  if (lookup?.name !== '$lookup' || !isPlainObject(lookup.spec) || typeof lookup.spec.as !== 'string') return 0;
  const as = lookup.spec.as;
  if (as.includes('.') || match?.name !== '$match' || !isPlainObject(match.spec)) return 0;
  const condition = match.spec[as];
  if (Object.keys(match.spec).length !== 1 || !isPlainObject(condition) || Object.keys(condition).length !== 1)
    return 0;
  if (!Array.isArray(condition.$ne) || condition.$ne.length !== 0) return 0;
  const dropsField =
    (project?.name === '$project' &&
      isPlainObject(project.spec) &&
      Object.keys(project.spec).length === 1 &&
      (project.spec[as] === 0 || project.spec[as] === false)) ||
    (project?.name === '$unset' &&
      (project.spec === as || (Array.isArray(project.spec) && project.spec.length === 1 && project.spec[0] === as)));
  return dropsField ? 3 : 0;
}

/** A `$lookup`'s output field and its join (memoized per join value, as `lookupStage` runs it). */
export function lookupJoiner(
  rawSpec: unknown,
  env: PipelineEnv,
  run: RunPipeline,
): { as: string; join: (outer: Doc) => Joined } {
  const spec = parseSpec(rawSpec);
  return { as: spec.as, join: joiner(spec, env, run, rawSpec) };
}

/** The joined documents of one outer document, for a parsed `$lookup`. */
function joiner(spec: LookupSpec, env: PipelineEnv, run: RunPipeline, rawSpec: unknown): (outer: Doc) => Joined {
  const foreign = env.resolve(spec.from);
  const equalityJoin =
    spec.localField !== undefined && spec.foreignField !== undefined
      ? equalityMatcher(foreign, spec.foreignField, env.overlay)
      : undefined;
  // A sub-pipeline's result depends only on the join values and the `let` variables, so within
  // one stage it runs once per distinct combination (a filter through a to-one relation over 10k
  // entries runs it once per related entry, not once per entry). Sharing the result arrays is
  // safe: a later stage that changes documents clones them first (see runPipeline).
  const memo = spec.pipeline && isDeterministic(spec.pipeline) ? memoOf(rawSpec, spec, env) : undefined;
  const letValues = spec.let ? letEvaluator(spec.let, env) : undefined;
  const projectOnly = equalityJoin && spec.pipeline ? projectionsOf(spec.pipeline) : undefined;
  return (outer) => {
    const locals = equalityJoin ? localValues(outer, spec.localField as string) : [];
    if (!spec.pipeline) return equalityJoin ? equalityJoin(locals) : [];
    // a populate's join (`[{ $project }]` after the equality): the index look-up projected, the
    // same documents in the same order as the sub-pipeline run below, without planning it per document
    if (projectOnly && locals.every(isKeyScalar)) return projectOnly((equalityJoin as EqualityJoin)(locals));
    const vars = letValues ? letValues(outer) : {};
    const key = memo ? memoKey(locals, vars) : '';
    const known = memo?.get(key);
    if (known) return known;
    const variables = { ...env.variables, ...vars };
    const subEnv = { ...env, variables };
    let joined: Joined;
    if (equalityJoin) {
      // the equality as the sub-pipeline's first $match, so the foreign side's plan (index walk
      // for a $sort + $limit) serves the whole join; a sub-pipeline that only filters and projects
      // (a localizations join) runs on the equality's documents, without planning its own access
      joined =
        foreign && locals.every(isKeyScalar) && !filtersOnly(spec.pipeline)
          ? run(foreign, [{ $match: { [spec.foreignField as string]: { $in: locals } } }, ...spec.pipeline], subEnv)
          : run(equalityJoin(locals), spec.pipeline, subEnv);
    } else {
      let pipeline = spec.pipeline;
      let base: Doc[];
      const overlay = foreign && env.overlay?.(foreign);
      const exact = exactFirstMatch(foreign, pipeline, variables, overlay);
      if (exact) {
        base = exact;
        pipeline = pipeline.slice(1);
      } else {
        base = pipelineCandidates(foreign, pipeline, variables, overlay);
      }
      joined = pipeline.length ? run(base, pipeline, subEnv) : base;
    }
    if (!isWork(joined)) {
      memo?.set(key, joined);
      return joined;
    }
    return remembered(joined, memo, key);
  };
}

/** Whether a sub-pipeline is made only of `$match` and `$project` stages (its answer keeps the input's order). */
const filtersOnly = frozenMemo((pipeline: unknown[]) =>
  pipeline.every((stage) => {
    if (!isPlainObject(stage)) return false;
    const keys = Object.keys(stage);
    return keys.length === 1 && (keys[0] === '$match' || keys[0] === '$project');
  }),
);

/** A sub-pipeline made only of `$project` stages of 0/1 fields, as one function; undefined for any other. */
const projectionsOf = frozenMemo(newProjectionsOf);

function newProjectionsOf(pipeline: unknown[]): ((docs: Doc[]) => Doc[]) | undefined {
  const steps: Array<(doc: Doc) => Doc> = [];
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) return undefined;
    const keys = Object.keys(stage);
    if (keys.length !== 1 || keys[0] !== '$project') return undefined;
    const step = simpleProjection(stage.$project);
    if (!step) return undefined;
    steps.push(step);
  }
  return (docs) => {
    let out = docs;
    for (const step of steps) out = out.map(step);
    return out;
  };
}

function* remembered(work: Work<Doc[]>, memo: Map<string, Doc[]> | undefined, key: string): Work<Doc[]> {
  const joined = yield* work;
  memo?.set(key, joined);
  return joined;
}

function localValues(outer: Doc, path: string): unknown[] {
  const values = pathValues(outer, path);
  return values.map((v) => (v === undefined ? null : v)).filter((v) => !(Array.isArray(v) && v.length === 0));
}

type EqualityJoin = (values: unknown[]) => Doc[];

function equalityMatcher(
  foreign: Collection | undefined,
  field: string,
  overlayOf: OverlayOf | undefined,
): EqualityJoin {
  if (!foreign) return () => [];
  let table: Map<string, Doc[]> | undefined;
  return (values) => {
    const overlay = overlayOf?.(foreign);
    if (values.every(isKeyScalar)) return equalTo(foreign, field, values, overlay);
    // documents or arrays as join values: one hash table of the foreign collection per stage (as it was then)
    if (!table) {
      table = new Map();
      tick(foreign.size);
      for (const d of seenDocuments(foreign, overlay)) {
        for (const v of new Set(pathValues(d, field).map(valueKey))) {
          const list = table.get(v);
          if (list) list.push(d);
          else table.set(v, [d]);
        }
      }
    }
    const seen = new Set<Doc>();
    for (const v of values) for (const d of table.get(valueKey(v)) ?? []) seen.add(d);
    return foreign.inNaturalOrder([...seen]);
  };
}

/** The `let` variables of one outer document; a plain `'$field.path'` is read directly, anything else is evaluated by mingo. */
function letEvaluator(letSpec: Doc, env: PipelineEnv): (outer: Doc) => Doc {
  const entries = Object.entries(letSpec);
  const simple = entries.every(([, expr]) => typeof expr === 'string' && /^\$[A-Za-z_][\w]*$/.test(expr));
  if (simple) {
    const fields = entries.map(([name, expr]) => [name, (expr as string).slice(1)] as const);
    return (outer) => {
      const out: Doc = {};
      for (const [name, field] of fields) out[name] = outer[field];
      return out;
    };
  }
  const options = mingoOptions(env);
  return (outer) => {
    const out: Doc = {};
    for (const [name, expr] of entries) out[name] = evalExpr(outer, expr, options);
    return out;
  };
}

/** The memo key of a join: cheap for the usual single id, the general value key otherwise. */
function memoKey(locals: unknown[], vars: Doc): string {
  const names = Object.keys(vars);
  if (locals.length === 0 && names.length === 1) {
    const only = primitiveKey(vars[names[0] as string]);
    if (only !== undefined) return only;
  }
  if (locals.length === 1 && names.length === 0) {
    const only = primitiveKey(locals[0]);
    if (only !== undefined) return only;
  }
  return valueKey([locals, vars]);
}

/** Keys that cannot collide with valueKey's (which never starts with '#'). */
function primitiveKey(v: unknown): string | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? `#i${v}` : undefined;
  if (typeof v === 'string') return `#s${v}`;
  if (v === null) return '#null';
  if (v === undefined) return '#missing';
  return undefined;
}

/**
 * Results of a `$lookup` stage's sub-pipeline by join values, kept for the whole command
 * (`env.joinMemos`): a stage inside another `$lookup`'s sub-pipeline runs once per outer document
 * of that one (a populate of tags, each with its articles, on 25 articles), and would otherwise
 * join the same tag again for each. Only where the sub-pipeline reads no variable of the enclosing
 * stages, whose values differ between runs.
 */
function memoOf(rawSpec: unknown, spec: LookupSpec, env: PipelineEnv): Map<string, Doc[]> {
  const outer = Object.keys(env.variables ?? {}).filter((name) => !Object.hasOwn(spec.let ?? {}, name));
  const read = variablesRead(spec.pipeline as unknown[]);
  if (!isPlainObject(rawSpec) || !env.joinMemos || outer.some((name) => read.has(name))) return new Map();
  let memo = env.joinMemos.get(rawSpec);
  if (!memo) {
    memo = new Map();
    env.joinMemos.set(rawSpec, memo);
  }
  return memo;
}

const variablesReadBy = new WeakMap<unknown[], Set<string>>();

/** The names of the `$$variables` a pipeline mentions (bound inside it or not: a superset of what it reads from outside). */
function variablesRead(pipeline: unknown[]): Set<string> {
  let names = variablesReadBy.get(pipeline);
  if (!names) {
    names = new Set();
    collectVariables(pipeline, names);
    variablesReadBy.set(pipeline, names);
  }
  return names;
}

function collectVariables(value: unknown, names: Set<string>): void {
  if (typeof value === 'string') {
    if (value.startsWith('$$')) names.add(value.slice(2).split('.')[0] as string);
  } else if (Array.isArray(value)) {
    for (const v of value) collectVariables(v, names);
  } else if (isPlainObject(value)) {
    for (const v of Object.values(value)) collectVariables(v, names);
  }
}

/** `$rand` and `$sample` give another answer on every run: such a sub-pipeline is not memoized. */
function isDeterministic(pipeline: unknown[]): boolean {
  let known = deterministic.get(pipeline);
  if (known === undefined) {
    known = !namesRandom(pipeline);
    deterministic.set(pipeline, known);
  }
  return known;
}

/** Whether `$rand` or `$sample` is a key anywhere in the value. */
function namesRandom(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesRandom);
  if (!isPlainObject(value)) return false;
  for (const key in value) if (key === '$rand' || key === '$sample' || namesRandom(value[key])) return true;
  return false;
}

const deterministic = new WeakMap<unknown[], boolean>();

/**
 * When the first stage is exactly `{ $match: { $expr: { $in | $eq: ['$field', '$$var'] } } }` on an
 * indexed field, its result computed from the index with the expression's own semantics (the
 * whole field value compared, missing never equal), so the stage need not run per outer document.
 */
function exactFirstMatch(
  foreign: Collection | undefined,
  pipeline: unknown[],
  variables: Doc,
  overlay: Overlay | undefined,
): Doc[] | undefined {
  if (!foreign) return undefined;
  const first = pipeline[0];
  if (!isPlainObject(first) || Object.keys(first).length !== 1 || !isPlainObject(first.$match)) return undefined;
  const match = first.$match;
  if (Object.keys(match).length !== 1 || !isPlainObject(match.$expr)) return undefined;
  const expr = match.$expr;
  const [op] = Object.keys(expr);
  const args = expr[op];
  if (Object.keys(expr).length !== 1 || (op !== '$eq' && op !== '$in') || !Array.isArray(args) || args.length !== 2)
    return undefined;
  let [field, variable] = args;
  if (op === '$eq' && typeof variable === 'string' && variable.startsWith('$') && !variable.startsWith('$$'))
    [field, variable] = [variable, field];
  if (typeof field !== 'string' || !field.startsWith('$') || field.startsWith('$$')) return undefined;
  const value = variableValue(variable, variables);
  if (value === NOT_A_VARIABLE) return undefined;
  const path = field.slice(1);
  let values: unknown[];
  if (op === '$in') {
    if (!Array.isArray(value)) return undefined; // let the stage raise MongoDB's 40081
    values = value;
  } else {
    if (Array.isArray(value) || value === undefined) return undefined;
    values = [value];
  }
  if (!values.every(isKeyScalar)) return undefined;
  const wanted = new Set(values.map(valueKey));
  return equalTo(foreign, path, values, overlay).filter((d) => {
    const v = getPath(d, path);
    return v !== undefined && wanted.has(valueKey(v));
  });
}

/** Candidates for a `let`/`pipeline` join: an index look-up when the first `$match` allows it. */
function pipelineCandidates(
  foreign: Collection | undefined,
  pipeline: unknown[],
  variables: Doc,
  overlay: Overlay | undefined,
): Doc[] {
  if (!foreign) return [];
  const first = pipeline[0];
  tick(foreign.size);
  if (!isPlainObject(first) || !isPlainObject(first.$match)) return seenDocuments(foreign, overlay);
  const match = first.$match;
  const { $expr, ...plain } = match;
  let best: Doc[] | undefined;
  if ($expr !== undefined) best = exprCandidates(foreign, $expr, variables, overlay);
  if (Object.keys(plain).length > 0) {
    const byFilter = candidates(foreign, plain, overlay);
    if (!best || byFilter.length < best.length) best = byFilter;
  }
  return best ?? seenDocuments(foreign, overlay);
}

function exprCandidates(
  foreign: Collection,
  expr: unknown,
  variables: Doc,
  overlay: Overlay | undefined,
): Doc[] | undefined {
  if (!isPlainObject(expr)) return undefined;
  const [op] = Object.keys(expr);
  const args = expr[op];
  if (Object.keys(expr).length !== 1) return undefined;
  if (op === '$and' && Array.isArray(args)) {
    let best: Doc[] | undefined;
    for (const sub of args) {
      const c = exprCandidates(foreign, sub, variables, overlay);
      if (c && (!best || c.length < best.length)) best = c;
    }
    return best;
  }
  if ((op !== '$eq' && op !== '$in') || !Array.isArray(args) || args.length !== 2) return undefined;
  let [field, variable] = args;
  if (op === '$eq' && typeof variable === 'string' && variable.startsWith('$') && !variable.startsWith('$$'))
    [field, variable] = [variable, field];
  if (typeof field !== 'string' || !field.startsWith('$') || field.startsWith('$$')) return undefined;
  const value = variableValue(variable, variables);
  if (value === NOT_A_VARIABLE) return undefined;
  let values: unknown[];
  if (op === '$in') {
    if (!Array.isArray(value)) return undefined;
    values = value;
  } else {
    if (Array.isArray(value) || isPlainObject(value)) return undefined;
    values = [value];
  }
  return values.every(isKeyScalar) ? equalTo(foreign, field.slice(1), values, overlay) : undefined;
}

const NOT_A_VARIABLE = Symbol('not a variable');

function variableValue(ref: unknown, variables: Doc): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('$$')) return NOT_A_VARIABLE;
  const [name, ...path] = ref.slice(2).split('.');
  if (!(name in variables)) return NOT_A_VARIABLE;
  let v: unknown = variables[name];
  for (const p of path) v = isPlainObject(v) ? v[p] : undefined;
  return v;
}

import { isPlainObject, type Doc } from '../bson/types.js';
import { commandError } from '../errors.js';
import { accessStages, withExecutionFigures, type Stage } from '../query/explain-plan.js';
import { checkStage, coalesceMatches, countStageField } from '../query/pipeline.js';
import { recordingPlans, type PlanChoice } from '../query/plan.js';
import { simpleProjection } from '../query/simple-projection.js';
import { parseSort } from '../query/sort.js';
import { executorStats } from '../query/stats.js';
import { finish, type Work } from '../work.js';
import { collectionName, optionalDoc, type CommandContext, type CommandHandler } from './context.js';
import { SERVER_VERSION } from './handshake.js';
import { matchingWork, resolveHint } from './matching.js';
import { aggregate, aggregateWork, countWork, distinctWork, findRequest, findWork } from './read.js';

type Verbosity = 'queryPlanner' | 'executionStats' | 'allPlansExecution';
const VERBOSITIES: readonly Verbosity[] = ['queryPlanner', 'executionStats', 'allPlansExecution'];

type Explainer = (inner: Doc, ctx: CommandContext, verbosity: Verbosity) => Doc;

/** What running the explained command did: its result, the plans chosen and what was examined. */
interface Run<T> {
  result: T;
  /** the command's own access (joins record theirs after it) */
  choice: PlanChoice | undefined;
  keysExamined: number;
  docsExamined: number;
  millis: number;
}

/**
 * Runs the explained command to the end, at once (no other command runs in between, so the
 * executor counters' difference is this command's). It runs at every verbosity: the planner
 * decides some plans while executing (an index walk for a sorted page gives up past a budget).
 */
function run<T>(work: () => Work<T>): Run<T> {
  const keys = executorStats.scanned;
  const docs = executorStats.scannedObjects;
  const start = performance.now();
  const { result, plans } = recordingPlans(() => finish(work()));
  return {
    result,
    choice: plans[0],
    keysExamined: executorStats.scanned - keys,
    docsExamined: executorStats.scannedObjects - docs,
    millis: Math.round(performance.now() - start),
  };
}

interface Explained {
  ns: string;
  filter: unknown;
  plan: Stage;
  nReturned: number;
  run: Run<unknown>;
}

/** The `queryPlanner` / `executionStats` sections of one planned read. */
function sections(e: Explained, verbosity: Verbosity): Doc {
  const out: Doc = {
    queryPlanner: {
      namespace: e.ns,
      indexFilterSet: false,
      parsedQuery: isPlainObject(e.filter) ? e.filter : {},
      maxIndexedOrSolutionsReached: false,
      maxIndexedAndSolutionsReached: false,
      maxScansToExplodeReached: false,
      winningPlan: e.plan,
      rejectedPlans: [],
    },
  };
  if (verbosity === 'queryPlanner') return out;
  const figures = {
    nReturned: e.nReturned,
    keysExamined: e.run.keysExamined,
    docsExamined: e.run.docsExamined,
    millis: e.run.millis,
  };
  out.executionStats = {
    executionSuccess: true,
    nReturned: e.nReturned,
    executionTimeMillis: e.run.millis,
    totalKeysExamined: e.run.keysExamined,
    totalDocsExamined: e.run.docsExamined,
    executionStages: withExecutionFigures(e.plan, figures),
    ...(verbosity === 'allPlansExecution' ? { allPlansExecution: [] } : {}),
  };
  return out;
}

function reply(body: Doc, inner: Doc, ctx: CommandContext): Doc {
  return {
    explainVersion: '1',
    ...body,
    command: { ...inner, $db: ctx.db },
    serverInfo: { host: ctx.server.host, port: ctx.server.port, version: SERVER_VERSION, gitVersion: 'embedded' },
    ok: 1,
  };
}

/** SKIP, LIMIT and projection stages over `plan`, as mongod stacks them for a find. */
function windowStages(plan: Stage, skip: number, limit: number, projection: Doc | undefined): Stage {
  let out = plan;
  if (skip) out = { stage: 'SKIP', skipAmount: skip, inputStage: out };
  if (limit) out = { stage: 'LIMIT', limitAmount: limit, inputStage: out };
  if (projection && Object.keys(projection).length > 0)
    out = {
      stage: simpleProjection(projection) ? 'PROJECTION_SIMPLE' : 'PROJECTION_DEFAULT',
      transformBy: projection,
      inputStage: out,
    };
  return out;
}

/** A blocking SORT over `plan` unless the documents already came in the sort's order. */
function sortStage(plan: Stage, choice: PlanChoice | undefined, sort: unknown, limitAmount?: number): Stage {
  if (!parseSort(sort) || choice?.sorted) return plan;
  return {
    stage: 'SORT',
    sortPattern: sort,
    memLimit: 104857600,
    ...(limitAmount ? { limitAmount } : {}),
    type: 'simple',
    inputStage: plan,
  };
}

function explainFind(inner: Doc, ctx: CommandContext, verbosity: Verbosity): Doc {
  const req = findRequest(inner);
  const done = run(() => findWork(req, ctx));
  const sorting = parseSort(req.sort) !== undefined && !done.choice?.sorted;
  let plan = accessStages(done.choice, req.filter);
  plan = sortStage(plan, done.choice, req.sort, req.limit ? req.skip + req.limit : undefined);
  // a blocking sort keeps only skip + limit documents: no LIMIT stage above it
  plan = windowStages(plan, req.skip, sorting ? 0 : req.limit, req.projection);
  const ns = `${ctx.db}.${req.name}`;
  return reply(
    sections({ ns, filter: req.filter, plan, nReturned: done.result.length, run: done }, verbosity),
    inner,
    ctx,
  );
}

function explainCount(inner: Doc, ctx: CommandContext, verbosity: Verbosity): Doc {
  const name = collectionName(inner, 'count');
  const query = optionalDoc(inner, 'query');
  const done = run(() => countWork(inner, ctx));
  const exists = ctx.catalog.get(ctx.db, name) !== undefined;
  const fast = !query || Object.keys(query).length === 0;
  const plan: Stage = !exists
    ? { stage: 'EOF' }
    : fast
      ? { stage: 'RECORD_STORE_FAST_COUNT' }
      : { stage: 'COUNT', inputStage: accessStages(done.choice, query) };
  const ns = `${ctx.db}.${name}`;
  // a count returns no documents: mongod reports nReturned 0
  return reply(sections({ ns, filter: query ?? {}, plan, nReturned: 0, run: done }, verbosity), inner, ctx);
}

function explainDistinct(inner: Doc, ctx: CommandContext, verbosity: Verbosity): Doc {
  const name = collectionName(inner, 'distinct');
  const query = optionalDoc(inner, 'query') ?? {};
  const done = run(() => distinctWork(inner, ctx));
  const plan: Stage = {
    stage: 'PROJECTION_DEFAULT',
    transformBy: { _id: 0, [String(inner.key)]: 1 },
    inputStage: accessStages(done.choice, query),
  };
  const nReturned = done.choice?.returned ?? 0;
  const ns = `${ctx.db}.${name}`;
  return reply(sections({ ns, filter: query, plan, nReturned, run: done }, verbosity), inner, ctx);
}

/**
 * An aggregation: the stages the planner runs on the indexes (the leading `$match`, with a
 * following `$sort` or count) form the query plan; with nothing else after them (or only `$skip`,
 * `$limit`, a plain projection) the reply has a find's shape, otherwise the plan is the first of
 * `stages` (`$cursor`) and the other stages follow as given, as mongod reports them.
 */
function explainAggregate(inner: Doc, ctx: CommandContext, verbosity: Verbosity): Doc {
  const done = run(() => aggregateWork(inner, ctx));
  const pipeline = Array.isArray(inner.pipeline) ? coalesceMatches(inner.pipeline.map(checkStage)) : [];
  const onCollection = inner.aggregate !== 1 && ctx.catalog.get(ctx.db, String(inner.aggregate)) !== undefined;
  const planned = onCollection && pipeline[0]?.name === '$match' && inner.collation === undefined;
  const filter = planned ? pipeline[0].spec : {};
  let rest = planned ? pipeline.slice(1) : pipeline;
  let plan = accessStages(done.choice, filter);
  if (planned && countStageField(rest[0]) !== undefined) {
    plan = { stage: 'COUNT', inputStage: plan };
    rest = rest.slice(1);
  } else if (planned && rest[0]?.name === '$sort' && parseSort(rest[0].spec)) {
    plan = sortStage(plan, done.choice, rest[0].spec);
    rest = rest.slice(1);
  }
  let skip = 0;
  let limit = 0;
  let projection: Doc | undefined;
  while (rest.length > 0 && !projection) {
    const { name, spec } = rest[0];
    if (name === '$skip' && typeof spec === 'number' && !limit) skip += spec;
    else if (name === '$limit' && typeof spec === 'number' && !limit) limit = spec;
    else if (name === '$project' && isPlainObject(spec) && simpleProjection(spec)) projection = spec;
    else break;
    rest = rest.slice(1);
  }
  plan = windowStages(plan, skip, limit, projection);
  const ns = `${ctx.db}.${String(inner.aggregate)}`;
  const nReturned = rest.length === 0 ? done.result.docs.length : (done.choice?.returned ?? 0);
  const body = sections({ ns, filter, plan, nReturned, run: done }, verbosity);
  if (rest.length === 0) return reply(body, inner, ctx);
  const stages: Doc[] = [{ $cursor: body }, ...rest.map(({ name, spec }) => ({ [name]: spec }))];
  return reply({ stages }, inner, ctx);
}

/** The one statement of an explained write batch (mongod explains batches of one). */
function onlyStatement(inner: Doc, field: string): Doc {
  const list = inner[field];
  if (!Array.isArray(list) || list.length !== 1 || !isPlainObject(list[0]))
    throw commandError('InvalidLength', 'explained write batches must be of size 1');
  return list[0];
}

/**
 * A write: the documents it would change are found as the write finds them (same plan, same
 * limit), and nothing is changed, as mongod's explain of a write.
 */
function explainWrite(
  ctx: CommandContext,
  verbosity: Verbosity,
  inner: Doc,
  write: { name: string; stage: 'UPDATE' | 'DELETE'; filter: unknown; single: boolean; sort?: unknown; hint?: unknown },
): Doc {
  const coll = ctx.catalog.get(ctx.db, write.name);
  const done = run(() =>
    matchingWork(coll, {
      filter: write.filter,
      sort: write.sort,
      limit: write.single ? 1 : undefined,
      hint: resolveHint(coll, write.hint),
      overlay: ctx.overlay,
    }),
  );
  let plan = sortStage(accessStages(coll ? done.choice : undefined, write.filter), done.choice, write.sort, 1);
  if (write.single && !parseSort(write.sort)) plan = { stage: 'LIMIT', limitAmount: 1, inputStage: plan };
  plan = { stage: write.stage, inputStage: plan };
  const ns = `${ctx.db}.${write.name}`;
  return reply(sections({ ns, filter: write.filter, plan, nReturned: 0, run: done }, verbosity), inner, ctx);
}

/** The write commands whose one statement is explained: its list field, stage, and whether it changes one document. */
const STATEMENT_WRITES: Record<string, { list: string; stage: 'UPDATE' | 'DELETE'; single: (stmt: Doc) => boolean }> = {
  update: { list: 'updates', stage: 'UPDATE', single: (stmt) => stmt.multi !== true },
  delete: { list: 'deletes', stage: 'DELETE', single: (stmt) => Number(stmt.limit) === 1 },
};

function statementExplainer(command: 'update' | 'delete'): Explainer {
  const { list, stage, single } = STATEMENT_WRITES[command];
  return (inner, ctx, verbosity) => {
    const stmt = onlyStatement(inner, list);
    const name = collectionName(inner, command);
    return explainWrite(ctx, verbosity, inner, {
      name,
      stage,
      filter: stmt.q ?? {},
      single: single(stmt),
      hint: stmt.hint,
    });
  };
}

function explainFindAndModify(inner: Doc, ctx: CommandContext, verbosity: Verbosity): Doc {
  const field = inner.findAndModify !== undefined ? 'findAndModify' : 'findandmodify';
  return explainWrite(ctx, verbosity, inner, {
    name: collectionName(inner, field),
    stage: inner.remove === true ? 'DELETE' : 'UPDATE',
    filter: inner.query ?? {},
    single: true,
    sort: inner.sort,
    hint: inner.hint,
  });
}

const EXPLAINERS: Record<string, Explainer> = {
  find: explainFind,
  aggregate: explainAggregate,
  count: explainCount,
  distinct: explainDistinct,
  update: statementExplainer('update'),
  delete: statementExplainer('delete'),
  findAndModify: explainFindAndModify,
  findandmodify: explainFindAndModify,
};

function verbosityOf(v: unknown): Verbosity {
  if (v === undefined || v === null) return 'allPlansExecution';
  const found = VERBOSITIES.find((name) => name === v);
  if (!found)
    throw commandError(
      'FailedToParse',
      `verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}`,
    );
  return found;
}

/** `explain: { find | aggregate | count | distinct | update | delete | findAndModify ... }, verbosity`. */
export const explain: CommandHandler = (cmd, ctx) => {
  const inner = optionalDoc(cmd, 'explain');
  if (!inner) throw commandError('FailedToParse', "BSON field 'explain.explain' is missing but a required field");
  const verbosity = verbosityOf(cmd.verbosity);
  const name = Object.keys(inner)[0] ?? '';
  const explainer = Object.hasOwn(EXPLAINERS, name) ? EXPLAINERS[name] : undefined;
  if (explainer) return explainer(inner, ctx, verbosity);
  if (name === 'mapReduce')
    throw commandError('CommandNotSupported', 'mapReduce is not supported by the embedded engine');
  throw commandError('CommandNotFound', `Explain failed due to unknown command: ${name}`);
};

/** `aggregate`, or with `explain: true` (the legacy form) its query plan. */
export const aggregateOrExplain: CommandHandler = (cmd, ctx) => {
  if (cmd.explain === undefined || cmd.explain === false) return aggregate(cmd, ctx);
  const { explain: _flag, ...inner } = cmd;
  return explainAggregate(inner, ctx, 'queryPlanner');
};

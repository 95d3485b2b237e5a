// The fuzz campaign (not part of npm test):
//   npm run fuzz [-- --requests 5000 --seed 42 --concurrency 4 --slow 2000 --report /tmp/fuzz-report.json]
// Runs the service on the fixture app in a child process (target.ts, service.ts) and fires
// generated requests at it as the public role, as an authenticated user and with a full-access
// API token: REST reads (the whole query language, malformed on purpose), odd paths, GraphQL
// operations from the served schema, then writes one at a time. It reports every 5xx (GraphQL:
// INTERNAL_SERVER_ERROR), grouped into classes by the error the service logged when replayed
// alone; every stall (no answer in 30 s: the service is restarted and the run goes on); every
// request slower than --slow (replayed alone to confirm); every private field in an answer; and
// every refused write that changed storage. Exits 1 when anything was found.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { loadConfig } from '../../src/config/index.js';
import { loadSchemas, Registry } from '../../src/content-types/index.js';
import { enabledPlugins } from '../../src/plugins/index.js';
import { PUBLICATION_APP } from '../../test/helpers/fixtures.js';
import { findLeak, privateMarkers, storageDigest } from './checks.js';
import { GraphQLGenerator } from './graphql.js';
import { Random } from './random.js';
import { RestGenerator, type FuzzRequest } from './rest.js';
import { Target, type Answer } from './target.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '5000' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    slow: { type: 'string', default: '2000' },
    report: { type: 'string', default: '/tmp/fuzz-report.json' },
  },
});
const total = Number(values.requests);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const slowMs = Number(values.slow);
const concurrency = Number(values.concurrency);
const REQUEST_TIMEOUT_MS = 30_000;

const target = new Target(REQUEST_TIMEOUT_MS);
await target.start();

const config = await loadConfig(PUBLICATION_APP);
const schemas = loadSchemas(config.appDir);
const registry = Registry.build(
  [...enabledPlugins(config).flatMap((plugin) => plugin.contentTypes?.(config) ?? []), ...schemas.contentTypes],
  schemas.components,
  { i18n: true },
);

const introspection = await target.send(
  {
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: getIntrospectionQuery() }),
    contentType: 'application/json',
    kind: 'setup',
  },
  1,
);
const schema = buildClientSchema((JSON.parse(introspection.text) as { data: IntrospectionQuery }).data);
const rnd = new Random(seed);
const rest = new RestGenerator(rnd, registry);
const graphql = new GraphQLGenerator(rnd, schema);
const markers = privateMarkers(registry);

interface Finding {
  kind: string;
  caller: string;
  method: string;
  path: string;
  body?: string;
  status: number;
  ms: number;
  answer: string;
}
const statuses = new Map<string, number>();
const byKind = new Map<string, Record<string, number>>();
/** why requests were refused (kind, status, message), to see what the generators reach */
const refusals = new Map<string, number>();
/** a finding that can be sent again: the request and which caller sent it */
type Replayable = Finding & { request: FuzzRequest; callerIndex: number };
const serverErrors: Replayable[] = [];
const slow: Replayable[] = [];
const stallSuspects: Replayable[] = [];
const stalls: Finding[] = [];
const leaks: (Finding & { where: string })[] = [];
const keptWrites: Finding[] = [];
let sent = 0;

const ME_WITHOUT_USER =
  /\{"message":"Authentication requested","locations":\[[^\]]*\],"path":\["[^"]+"\],"extensions":\{"code":"INTERNAL_SERVER_ERROR"\}\}/g;

function isServerError(answer: Answer): boolean {
  if (answer.status >= 500 || answer.status === -1) return true;
  // a GraphQL error coded INTERNAL_SERVER_ERROR inside a 200 is a resolver crash; in a 4xx it is
  // Apollo Server 3's own request refusal (an operation without a query), which Strapi answers too
  if (answer.status >= 400 || !answer.text.includes('"INTERNAL_SERVER_ERROR"')) return false;
  // Strapi 4.26's `me` throws a plain Error for a caller without a user (an API token), which its
  // GraphQL answers coded INTERNAL_SERVER_ERROR: the service answers the same on purpose
  return answer.text.replaceAll(ME_WITHOUT_USER, '').includes('"INTERNAL_SERVER_ERROR"');
}

/** A socket closed by the server after an early 4xx (431 for a long URL while the body was still being sent). */
function earlyClientError(first: Finding, again: Answer): boolean {
  return first.status === -1 && first.answer.startsWith('socket:') && again.status >= 400 && again.status < 500;
}

function finding(req: FuzzRequest, caller: string, answer: Answer): Finding {
  return {
    kind: req.kind,
    caller,
    method: req.method,
    path: req.path.slice(0, 500),
    body: req.body?.slice(0, 500),
    status: answer.status,
    ms: Math.round(answer.ms),
    answer: answer.text.slice(0, 300),
  };
}

async function fire(req: FuzzRequest): Promise<Answer | null> {
  const callerIndex = rnd.int(0, target.callers.length - 1);
  const caller = target.callers[callerIndex]?.[0] ?? '?';
  const generation = target.generation;
  const answer = await target.send(req, callerIndex);
  if (answer.status === -1 && answer.text === 'timeout') {
    // the service stopped answering (this request, or another one it waited behind): a fresh
    // service, and the request is tried alone at the end
    stallSuspects.push({ ...finding(req, caller, answer), request: req, callerIndex });
    if (generation === target.generation) await target.restart();
    return null;
  }
  // killed under it by a restart for another request's stall
  if (answer.status === -1 && generation !== target.generation) return null;
  sent++;
  const bucket = answer.status < 0 ? 'failed' : `${Math.floor(answer.status / 100)}xx`;
  statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
  const perKind = byKind.get(req.kind) ?? {};
  perKind[bucket] = (perKind[bucket] ?? 0) + 1;
  byKind.set(req.kind, perKind);
  if (answer.status >= 400 && answer.status < 500) {
    const reason = `${req.kind} ${answer.status} ${/"message":"([^"]{0,60})/.exec(answer.text)?.[1] ?? answer.text.slice(0, 40)}`;
    refusals.set(reason, (refusals.get(reason) ?? 0) + 1);
  }
  if (isServerError(answer)) serverErrors.push({ ...finding(req, caller, answer), request: req, callerIndex });
  if (answer.ms > slowMs) slow.push({ ...finding(req, caller, answer), request: req, callerIndex });
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    // not JSON (405 text, 431): nothing to scan
  }
  const where = findLeak(parsed, markers);
  if (where) leaks.push({ ...finding(req, caller, answer), where });
  return answer;
}

// Phase 1: reads, odd paths and GraphQL queries, `concurrency` at a time, while a canary read
// measures how long an ordinary request waits.
const readCount = Math.round(total * 0.75);
let canaryWorst = 0;
let canaryRunning = true;
const canary = (async () => {
  while (canaryRunning) {
    const answer = await target.send({ method: 'GET', path: '/api/tags/1', kind: 'canary' });
    canaryWorst = Math.max(canaryWorst, answer.ms);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();
let issued = 0;
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (issued < readCount) {
      issued++;
      const req = rnd.weighted<FuzzRequest>([
        [50, () => rest.read()],
        [30, () => graphql.query()],
        [8, () => rest.oddPath()],
        [7, () => rest.pluginRead()],
      ]);
      await fire(req);
    }
  }),
);
canaryRunning = false;
await canary;

// Phase 2: writes one at a time; a refused one must leave storage as it was.
for (let i = readCount; i < total; i++) {
  const req = rnd.weighted<FuzzRequest>([
    [60, () => rest.write()],
    [30, () => graphql.mutation()],
    [10, () => rest.pluginWrite()],
  ]);
  const before = await storageDigest(target.db);
  const answer = await fire(req);
  // in a document of several mutations, the ones before a failure have run (as in Strapi)
  if (!answer || !refused(answer) || (req.rootFields ?? 1) > 1) continue;
  if ((await storageDigest(target.db)) !== before) keptWrites.push(finding(req, 'sequential', answer));
}
const elapsed = (Date.now() - started) / 1000;

/** A 4xx, or a GraphQL answer whose every root field failed. */
function refused(answer: Answer): boolean {
  if (answer.status >= 400 && answer.status < 500) return true;
  if (answer.status !== 200 || !answer.text.includes('"errors"')) return false;
  const body = JSON.parse(answer.text) as { data?: Record<string, unknown> | null };
  return !body.data || Object.values(body.data).every((value) => value === null);
}

/** A finding sent again, alone; a fresh service if it stalls this time. */
async function replay(entry: Replayable): Promise<Answer> {
  const again = await target.send(entry.request, entry.callerIndex);
  if (again.status === -1 && again.text === 'timeout') await target.restart();
  return again;
}

// Replays: each 5xx alone, to read what the service logged; each slow request alone, to confirm.
const classes = new Map<string, { count: number; example: Finding }>();
for (const error of [...serverErrors]) {
  const mark = target.logged.length;
  const again = await replay(error);
  if (earlyClientError(error, again)) {
    serverErrors.splice(serverErrors.indexOf(error), 1);
    continue;
  }
  const lines = target.logged.slice(mark);
  const entry = lines.find((line) => line.err) ?? lines[0];
  const reason = entry?.err
    ? `${entry.err.type}: ${normalize(entry.err.message ?? '')} @ ${firstOwnFrame(entry.err.stack)}`
    : isServerError(again)
      ? `no log line: ${again.status} ${again.text.slice(0, 80)}`
      : `not reproduced alone (${again.status})`;
  const known = classes.get(reason);
  if (known) known.count++;
  else classes.set(reason, { count: 1, example: error });
}
for (const suspect of stallSuspects) {
  const again = await replay(suspect);
  if (again.status === -1 && again.text === 'timeout') stalls.push(suspect);
}
const confirmedSlow: (Finding & { alone: number })[] = [];
for (const entry of slow) {
  const again = await replay(entry);
  if (again.ms > slowMs) confirmedSlow.push({ ...entry, alone: Math.round(again.ms) });
}

function normalize(message: string): string {
  return message
    .replace(/"[^"]*"|'[^']*'/g, '…')
    .replace(/\d+/g, 'N')
    .slice(0, 160);
}

function firstOwnFrame(stack = ''): string {
  const frame = stack.split('\n').find((line) => line.includes('/src/'));
  return frame ? (frame.trim().replace(/^at /, '').split('/src/')[1] ?? frame.trim()) : 'no frame in src/';
}

const report = {
  seed,
  requests: sent,
  seconds: elapsed,
  statuses: Object.fromEntries([...statuses.entries()].sort()),
  byKind: Object.fromEntries([...byKind.entries()].sort()),
  refusals: Object.fromEntries([...refusals.entries()].sort((a, b) => b[1] - a[1])),
  serverErrors: serverErrors.length,
  classes: [...classes.entries()].map(([reason, { count, example }]) => ({ reason, count, example })),
  slow: { over: slowMs, concurrent: slow.length, confirmedAlone: confirmedSlow },
  canaryWorstMs: Math.round(canaryWorst),
  stalls,
  leaks,
  refusedWritesThatChangedStorage: keptWrites,
};
writeFileSync(values.report ?? '/tmp/fuzz-report.json', JSON.stringify(report, null, 2));
console.log(`seed ${seed}: ${sent} requests in ${elapsed.toFixed(0)} s, statuses ${JSON.stringify(report.statuses)}`);
console.log(`5xx: ${serverErrors.length} in ${classes.size} classes`);
for (const { reason, count, example } of report.classes)
  console.log(
    `  ${count} × ${reason}\n      e.g. ${example.method} ${example.path.slice(0, 160)}${example.body ? ` ${example.body.slice(0, 160)}` : ''}`,
  );
console.log(
  `slower than ${slowMs} ms: ${slow.length} under load, ${confirmedSlow.length} alone; canary worst ${report.canaryWorstMs} ms`,
);
for (const entry of confirmedSlow) console.log(`  ${entry.alone} ms ${entry.method} ${entry.path.slice(0, 160)}`);
console.log(
  `stalls (no answer in ${REQUEST_TIMEOUT_MS / 1000} s, alone too): ${stalls.length} of ${stallSuspects.length} that timed out under load`,
);
for (const stall of stalls.slice(0, 5))
  console.log(`  ${stall.method} ${stall.path.slice(0, 160)} ${stall.body?.slice(0, 160) ?? ''}`);
console.log(`private data in answers: ${leaks.length}; refused writes that changed storage: ${keptWrites.length}`);
for (const leak of leaks.slice(0, 5)) console.log(`  leak ${leak.where}: ${leak.method} ${leak.path.slice(0, 120)}`);
for (const kept of keptWrites.slice(0, 5))
  console.log(`  kept ${kept.status} ${kept.method} ${kept.path.slice(0, 120)} ${kept.body?.slice(0, 120)}`);
console.log(`report: ${values.report}`);
await target.stop();
process.exit(serverErrors.length + stalls.length + confirmedSlow.length + leaks.length + keptWrites.length > 0 ? 1 : 0);

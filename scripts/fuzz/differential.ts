// The differential write campaign (not part of npm test): the same generated write sequence sent
// to a real Strapi 4.26 and to this service, both freshly seeded with the conformance fixture,
// step by step, each answer compared after the conformance normalisation (timestamps, jwt, bcrypt
// hashes), and every entry a write answered 2xx for read back from both.
//   npm run fuzz:writes -- --app DIR --strapi URL --strapi-token T --service URL --service-token T
//                          [--requests 3000] [--seed 42] [--report /tmp/fuzz-writes.json]
// Ids created by the run are captured per server (`{{ref}}` in later steps), so a server that
// assigned other ids is still asked about its own entries. Differences are grouped into classes
// (area, status pair, first differing path, both error messages).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Random } from './random.js';
import { readAppSchemas, WriteGenerator, type AppSchemas, type WriteStep } from './writes.js';

const { values } = parseArgs({
  options: {
    app: { type: 'string' },
    strapi: { type: 'string', default: 'http://127.0.0.1:41337' },
    'strapi-token': { type: 'string' },
    service: { type: 'string', default: 'http://127.0.0.1:41338' },
    'service-token': { type: 'string' },
    requests: { type: 'string', default: '3000' },
    seed: { type: 'string' },
    report: { type: 'string', default: '/tmp/fuzz-writes.json' },
  },
});
if (!values.app || !values['strapi-token'] || !values['service-token'])
  throw new Error('--app, --strapi-token and --service-token are required');

interface Side {
  name: 'strapi' | 'service';
  base: string;
  token: string;
  refs: Map<string, string>;
  jwts: Map<string, string>;
}
interface Reply {
  status: number;
  body: unknown;
}
const PASSWORDS: Record<string, string> = { alice: 'Password123!', bob: 'Password123!', Carol_X: 'Secret%&*456' };
const BCRYPT = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const app = readAppSchemas(values.app);
const generator = new WriteGenerator(new Random(seed), app, seed.toString(36));
const sides: [Side, Side] = [
  { name: 'strapi', base: values.strapi, token: values['strapi-token'], refs: new Map(), jwts: new Map() },
  { name: 'service', base: values.service, token: values['service-token'], refs: new Map(), jwts: new Map() },
];

async function authorization(side: Side, auth: string | undefined): Promise<string | undefined> {
  if (!auth) return undefined;
  if (auth === 'token') return `Bearer ${side.token}`;
  let jwt = side.jwts.get(auth);
  if (!jwt) {
    const reply = await fetch(`${side.base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: auth, password: PASSWORDS[auth] }),
    });
    jwt = ((await reply.json()) as { jwt?: string }).jwt ?? 'none';
    side.jwts.set(auth, jwt);
  }
  return `Bearer ${jwt}`;
}

/** `{{ref}}` replaced by the id this server created for it (an unknown id when it created none). */
function resolve(side: Side, text: string): string {
  // a quoted ref becomes a bare number in JSON (an id as clients send it)
  return text.replace(/"\{\{(\w+)\}\}"|\{\{(\w+)\}\}/g, (_, quoted?: string, bare?: string) => {
    const id = side.refs.get((quoted ?? bare)!) ?? '999999';
    return quoted && !/^\d+$/.test(id) ? JSON.stringify(id) : id;
  });
}

async function send(side: Side, step: WriteStep): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const authValue = await authorization(side, step.auth);
  if (authValue) headers.authorization = authValue;
  let body: string | undefined;
  if (step.body !== undefined) {
    body = resolve(side, JSON.stringify(step.body));
    headers['content-type'] = 'application/json';
  }
  const reply = await fetch(side.base + resolve(side, step.path), { method: step.method, headers, body });
  const text = await reply.text();
  let parsed: unknown = null;
  if (text !== '')
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { '<non-json-body>': text.slice(0, 300) };
    }
  return { status: reply.status, body: parsed };
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (['createdAt', 'updatedAt', 'publishedAt'].includes(key) && typeof item === 'string') out[key] = '<timestamp>';
      else if (key === 'jwt' && typeof item === 'string') out[key] = '<jwt>';
      else out[key] = normalize(item);
    }
    return out;
  }
  if (typeof value === 'string' && BCRYPT.test(value)) return '<bcrypt>';
  return value;
}

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.').filter(Boolean)) current = (current as Record<string, unknown> | null)?.[key];
  return current;
}

function replace(value: unknown, path: string, by: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = at(value, keys.join('.'));
  if (parent && typeof parent === 'object') (parent as Record<string, unknown>)[last] = by;
}

interface Difference {
  path: string;
  strapi: unknown;
  service: unknown;
}
function differences(a: unknown, b: unknown, path = '$', out: Difference[] = []): Difference[] {
  if (out.length > 4) return out;
  const kind = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
  if (kind(a) !== kind(b)) out.push({ path, strapi: a, service: b });
  else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push({ path: `${path}.length`, strapi: a.length, service: b.length });
    for (let i = 0; i < Math.min(a.length, b.length); i++) differences(a[i], b[i], `${path}[${i}]`, out);
  } else if (kind(a) === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(key in x)) out.push({ path: `${path}.${key}`, strapi: '<absent>', service: y[key] });
      else if (!(key in y)) out.push({ path: `${path}.${key}`, strapi: x[key], service: '<absent>' });
      else differences(x[key], y[key], `${path}.${key}`, out);
    }
  } else if (a !== b) out.push({ path, strapi: a, service: b });
  return out;
}

/** The read-back of an entry: every attribute, components and dynamic zones in full, drafts too. */
function readBack(app: AppSchemas, step: WriteStep, replies: [Reply, Reply]): WriteStep | undefined {
  if (step.path.startsWith('/graphql') || step.path.startsWith('/api/auth')) return undefined;
  if (replies.some((reply) => reply.status >= 300) || step.method === 'DELETE') return undefined;
  const match = /^\/api\/([^/?]+)(?:\/([^/?]+))?/.exec(step.path);
  if (!match) return undefined;
  const [, route = '', id] = match;
  if (route === 'users') {
    return {
      method: 'GET',
      path: `/api/users/${id ?? '{{entry}}'}?populate=role`,
      auth: 'token',
      kind: 'read-back users',
      capture: { ref: 'entry', at: 'id' },
    };
  }
  const schema = [...app.types.values()].find((s) => s.info.pluralName === route || s.info.singularName === route);
  if (!schema) return undefined;
  const populate = Object.entries(schema.attributes)
    .filter(([, attribute]) => ['relation', 'media', 'component', 'dynamiczone'].includes(attribute.type))
    .map(([name, attribute]) =>
      attribute.type === 'relation' || attribute.type === 'media'
        ? `populate[${name}][fields][0]=id`
        : `populate[${name}][populate]=*`,
    );
  const query = [...populate, 'publicationState=preview'];
  if (schema.kind === 'singleType')
    return { method: 'GET', path: `/api/${route}?${query.join('&')}`, auth: 'token', kind: `read-back ${route}` };
  // the id each server answered for this entry (a localization answers it flat)
  const entryPath = step.path.includes('/localizations') ? 'id' : 'data.id';
  const own = id && !step.path.includes('/localizations') ? id : `{{entry}}`;
  return {
    method: 'GET',
    path: `/api/${route}/${own}?${query.join('&')}`,
    auth: 'token',
    kind: `read-back ${route}`,
    capture: { ref: 'entry', at: entryPath },
  };
}

interface Outcome {
  index: number;
  kind: string;
  label: string;
  same: boolean;
  differences: Difference[];
  strapi: Reply;
  service: Reply;
}
const outcomes: Outcome[] = [];
const perKind = new Map<string, { n: number; same: number }>();
/** status pairs (Strapi/service), to see what the generator reaches */
const statuses = new Map<string, number>();

async function compare(index: number, step: WriteStep, entryIds?: [string, string]): Promise<[Reply, Reply]> {
  if (entryIds) sides.forEach((side, i) => side.refs.set('entry', entryIds[i]!));
  const replies = (await Promise.all(sides.map((side) => send(side, step)))) as [Reply, Reply];
  const [a, b] = replies.map((reply) => ({ status: reply.status, body: normalize(reply.body) }));
  // the entry this step made or read back: each server's own id for it, so a drift of ids (an
  // entry one of them made and the other refused) is not a difference of every later create
  const readBackPath = at(a!.body, 'data.id') === undefined ? 'id' : 'data.id';
  const idPath = step.capture?.at ?? (entryIds ? readBackPath : undefined);
  if (idPath) {
    const ids = [at(a!.body, idPath), at(b!.body, idPath)];
    if (ids.every((id) => typeof id === 'number' || typeof id === 'string'))
      for (const reply of [a!, b!]) replace(reply.body, idPath, '<entry id>');
  }
  const found = differences(a, b);
  const area = step.kind.split(' ')[0] === 'read-back' ? step.kind : step.kind;
  const tally = perKind.get(area) ?? { n: 0, same: 0 };
  tally.n++;
  if (found.length === 0) tally.same++;
  perKind.set(area, tally);
  const pair = `${area} ${a!.status}/${b!.status}`;
  statuses.set(pair, (statuses.get(pair) ?? 0) + 1);
  outcomes.push({
    index,
    kind: area,
    label: `${step.method} ${step.path}${step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`} [${step.auth ?? 'public'}]`,
    same: found.length === 0,
    differences: found,
    strapi: a!,
    service: b!,
  });
  return replies;
}

const total = Number(values.requests);
const started = Date.now();
for (let i = 0; i < total; i++) {
  const step = generator.step();
  const replies = await compare(i, step);
  if (step.capture) {
    const capture = step.capture;
    sides.forEach((side, s) => {
      const id = at(replies[s]!.body, capture.at);
      if (typeof id === 'number' || typeof id === 'string') side.refs.set(capture.ref, String(id));
    });
  }
  const back = readBack(app, step, replies);
  if (back) {
    const ids = back.capture
      ? (replies.map((reply) => String(at(reply.body, back.capture!.at))) as [string, string])
      : undefined;
    await compare(i, { ...back, capture: undefined }, ids);
  }
  if ((i + 1) % 250 === 0) process.stderr.write(`${i + 1} steps, ${outcomes.length} compared\n`);
}

const errorOf = (reply: Reply): string => {
  const body = reply.body as {
    error?: { name?: string; message?: string };
    errors?: { message?: string; extensions?: { code?: string } }[];
  } | null;
  if (body?.error) return `${body.error.name}: ${String(body.error.message).slice(0, 70)}`;
  if (body?.errors?.[0])
    return `GQL ${String(body.errors[0].message).slice(0, 70)} ${body.errors[0].extensions?.code ?? ''}`;
  return '';
};
const classes = new Map<string, number[]>();
for (const outcome of outcomes.filter((o) => !o.same)) {
  const where =
    outcome.strapi.status !== outcome.service.status
      ? `status ${outcome.strapi.status}->${outcome.service.status}`
      : `${outcome.strapi.status} ${outcome.differences[0]?.path.replace(/\[\d+\]/g, '[N]')}`;
  const key = `${outcome.kind} ${where} | S ${errorOf(outcome.strapi)} | O ${errorOf(outcome.service)}`;
  classes.set(key, [...(classes.get(key) ?? []), outcomes.indexOf(outcome)]);
}
const sorted = [...classes.entries()].sort((a, b) => b[1].length - a[1].length);
writeFileSync(
  values.report,
  JSON.stringify(
    {
      seed,
      compared: outcomes.length,
      seconds: (Date.now() - started) / 1000,
      perKind: Object.fromEntries(perKind),
      classes: Object.fromEntries(sorted.map(([key, list]) => [key, list.length])),
      statuses: Object.fromEntries(statuses),
      differences: outcomes.filter((o) => !o.same),
    },
    null,
    1,
  ),
);
const same = outcomes.filter((o) => o.same).length;
console.log(`seed ${seed}: ${outcomes.length} compared, ${same} same, ${outcomes.length - same} different`);
for (const [key, list] of sorted) console.log(`${String(list.length).padStart(5)} ${key.slice(0, 240)}`);
console.log(`report: ${values.report}`);

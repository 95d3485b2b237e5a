// The neighbour sweep (not part of npm test): variations of the recorded cases (another
// content-type, id, operator, value, an added or dropped parameter; for GraphQL another number,
// string, operator or field) sent to a reference Strapi 4.26 and to this service, both freshly
// seeded with the conformance fixture, and compared after the conformance normalisation. The
// held-back cases are neighbours of the visible ones: this is where their differences show.
//   node scripts/fuzz/neighbours.mjs --cases DIR --strapi URL --service URL --service-token T
//        [--strapi-token T] [--requests 500] [--seed 1] [--report /tmp/neighbours.json]
// Prints the differences by class (status pair or first differing path, both error messages).
// Writes only where a recorded case reads (the write cases are left out); Strapi's 500s and the
// documented deviations (drafts, amountLimit, LIKE wildcards) show as their own classes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    cases: { type: 'string' },
    strapi: { type: 'string', default: 'http://127.0.0.1:41337' },
    'strapi-token': {
      type: 'string',
      default: 'oracle-full-access-token-0000000000000000000000000000000000000000000000000000000000000000',
    },
    service: { type: 'string' },
    'service-token': { type: 'string' },
    requests: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
    report: { type: 'string', default: '/tmp/neighbours.json' },
  },
});
if (!values.cases || !values.service || !values['service-token'])
  throw new Error('--cases, --service and --service-token are required');
const dir = values.cases;
const strapiBase = values.strapi;
const serviceBase = values.service;
const serviceToken = values['service-token'];
const outFile = values.report;
const STRAPI_TOKEN = values['strapi-token'];
let seed = Number(values.seed);
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
const pick = (a) => a[Math.floor(rnd() * a.length)];

const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')));
const TYPES = ['articles', 'authors', 'author-profiles', 'categories', 'tags', 'events', 'notes'];
const OPS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
  '$null',
  '$notNull',
  '$between',
];
const FIELDS = {
  articles: [
    'title',
    'slug',
    'summary',
    'body',
    'kind',
    'publishDate',
    'scheduledAt',
    'readingTime',
    'views',
    'rating',
    'price',
    'featured',
    'metadata',
    'contactEmail',
    'internalNotes',
    'locale',
    'publishedAt',
    'createdAt',
    'id',
    'author',
    'category',
    'tags',
    'reviewer',
    'seo',
    'links',
    'blocks',
    'localizations',
  ],
  authors: ['name', 'email', 'bio', 'birthDate', 'active', 'secretCode', 'profile', 'articles', 'address', 'id'],
  events: [
    'name',
    'day',
    'startTime',
    'startsAt',
    'capacity',
    'budget',
    'ticketPrice',
    'score',
    'online',
    'status',
    'details',
    'speakers',
    'venue',
    'publishedAt',
    'id',
  ],
  categories: ['name', 'slug', 'sortOrder', 'kind', 'articles', 'id', 'description'],
  tags: ['name', 'weight', 'relatedTags', 'articles', 'id'],
};
const VALUES = [
  '1',
  '0',
  '-1',
  '2',
  '10',
  '1.5',
  'abc',
  '',
  'true',
  'false',
  'null',
  'news',
  'Paris',
  'a',
  'A',
  '%',
  '_',
  '2024-01-01',
  '2024-03-06T10:00:00.000Z',
  '12:00',
  '3000123457',
  'é',
  '5,10',
];
const IDS = [
  '1',
  '2',
  '3',
  '5',
  '12',
  '40',
  '41',
  '44',
  '48',
  '49',
  '0',
  '-1',
  '1.0',
  '01',
  '1e1',
  '0x1',
  ' 1',
  '9007199254740993',
  'null',
  'true',
  '%20',
];

function mutatePath(path) {
  const [p, q = ''] = path.split('?');
  const kind = rnd();
  const params = q ? q.split('&') : [];
  if (kind < 0.15) {
    // other type
    const t = pick(TYPES);
    return p.replace(/^\/api\/[a-z-]+/, `/api/${t}`) + (q ? `?${q}` : '');
  }
  if (kind < 0.25 && /\/api\/[a-z-]+\/[^/?]+/.test(p))
    return p.replace(/(\/api\/[a-z-]+\/)[^/?]+/, `$1${pick(IDS)}`) + (q ? `?${q}` : '');
  if (kind < 0.4 && params.length) {
    // operator swap
    const i = Math.floor(rnd() * params.length);
    params[i] = params[i].replace(/\$[a-zA-Z]+/, () => pick(OPS));
  } else if (kind < 0.55 && params.length) {
    const i = Math.floor(rnd() * params.length);
    const [k] = params[i].split('=');
    params[i] = `${k}=${encodeURIComponent(pick(VALUES))}`;
  } else if (kind < 0.65 && params.length) {
    params.splice(Math.floor(rnd() * params.length), 1);
  } else if (kind < 0.8) {
    const t = (/\/api\/([a-z-]+)/.exec(p) || [])[1];
    const f = pick(FIELDS[t] ?? ['id', 'title', 'name']);
    const extra = pick([
      `filters[${f}][${pick(OPS)}]=${encodeURIComponent(pick(VALUES))}`,
      `sort=${f}:${pick(['asc', 'desc', 'ASC', 'x'])}`,
      `sort[0]=${f}&sort[1]=id:desc`,
      `fields[0]=${f}`,
      `populate[${f}]=*`,
      `populate=${f}`,
      `populate[${f}][fields][0]=id`,
      `populate[${f}][count]=true`,
      `locale=${pick(['fr', 'all', 'en', 'de', ''])}`,
      `publicationState=${pick(['preview', 'live', 'x'])}`,
      `pagination[${pick(['page', 'pageSize', 'start', 'limit', 'withCount'])}]=${pick(VALUES)}`,
      `_q=${pick(['paris', 'a', '', '%'])}`,
      `filters[$or][0][${f}][$eq]=${encodeURIComponent(pick(VALUES))}&filters[$or][1][id][$eq]=2`,
      `filters[${f}][$not][${pick(OPS)}]=${encodeURIComponent(pick(VALUES))}`,
      `filters[${f}][id][$in][0]=1&filters[${f}][id][$in][1]=3`,
    ]);
    params.push(extra);
  } else if (params.length) {
    // number nudge
    const i = Math.floor(rnd() * params.length);
    params[i] = params[i].replace(/=(-?\d+)$/, (_, n) => `=${Number(n) + pick([-1, 1, 2, -2, 10])}`);
  }
  return p + (params.length ? `?${params.join('&')}` : '');
}

function mutateGraphql(query) {
  const kind = rnd();
  if (kind < 0.35) {
    const nums = [...query.matchAll(/(?<![A-Za-z_])\d+(?![A-Za-z_])/g)];
    if (nums.length) {
      const m = pick(nums);
      return (
        query.slice(0, m.index) +
        pick(['0', '1', '2', '5', '41', '44', '-1', '100', '101', '"3"']) +
        query.slice(m.index + m[0].length)
      );
    }
  }
  if (kind < 0.55) {
    const strs = [...query.matchAll(/"([^"\\]*)"/g)];
    if (strs.length) {
      const m = pick(strs);
      return query.slice(0, m.index) + JSON.stringify(pick(VALUES)) + query.slice(m.index + m[0].length);
    }
  }
  if (kind < 0.75) {
    const ops = [
      'eq',
      'eqi',
      'ne',
      'lt',
      'lte',
      'gt',
      'gte',
      'in',
      'notIn',
      'contains',
      'containsi',
      'notContains',
      'startsWith',
      'endsWith',
      'null',
      'notNull',
      'between',
    ];
    const m = [
      ...query.matchAll(
        /\b(eq|eqi|ne|lt|lte|gt|gte|in|notIn|contains|containsi|notContains|notContainsi|startsWith|endsWith|null|notNull|between)\s*:/g,
      ),
    ];
    if (m.length) {
      const x = pick(m);
      return query.slice(0, x.index) + pick(ops) + query.slice(x.index + x[1].length);
    }
  }
  const swaps = [
    ['articles', 'events'],
    ['article(', 'event('],
    ['articles', 'tags'],
    ['PREVIEW', 'LIVE'],
    ['LIVE', 'PREVIEW'],
    ['locale: "all"', 'locale: "fr"'],
    ['title', 'slug'],
    ['{ data { id }', '{ data { id attributes { publishedAt } }'],
  ];
  const [a, b] = pick(swaps);
  return query.includes(a) ? query.replace(a, b) : query + '';
}

const BCRYPT = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;
function normalize(v) {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) {
      if (['createdAt', 'updatedAt', 'publishedAt'].includes(k) && typeof x === 'string') o[k] = '<timestamp>';
      else if (k === 'jwt' && typeof x === 'string') o[k] = '<jwt>';
      else o[k] = normalize(x);
    }
    return o;
  }
  if (typeof v === 'string' && BCRYPT.test(v)) return '<bcrypt>';
  return v;
}
function diff(a, b, path = '$') {
  const kind = (x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);
  if (kind(a) !== kind(b)) return { path, s: a, o: b };
  if (Array.isArray(a)) {
    if (a.length !== b.length) return { path: `${path}.length`, s: a.length, o: b.length };
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (kind(a) === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a)) return { path: `${path}.${k}`, s: '<absent>', o: b[k] };
      if (!(k in b)) return { path: `${path}.${k}`, s: a[k], o: '<absent>' };
      const d = diff(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : { path, s: a, o: b };
}
const jwts = {};
async function login(base) {
  if (jwts[base]) return jwts[base];
  const r = await fetch(`${base}/api/auth/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'alice', password: 'Password123!' }),
  });
  return (jwts[base] = (await r.json()).jwt);
}
async function send(base, token, req) {
  const headers = { ...(req.headers ?? {}) };
  if (req.auth === 'token') headers.authorization = `Bearer ${token}`;
  else if (req.auth?.login) headers.authorization = `Bearer ${await login(base)}`;
  let body;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  const r = await fetch(base + req.path, { method: req.method, headers, body });
  const text = await r.text();
  let parsed;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = { '<non-json-body>': text.slice(0, 200) };
  }
  return { status: r.status, body: normalize(parsed) };
}
const reads = cases.filter(
  (c) =>
    c.request &&
    (c.request.method === 'GET' || c.protocol === 'graphql') &&
    !/mutation/.test(JSON.stringify(c.request.body ?? '')),
);
const limit = Number(values.requests);
const results = [];
const seen = new Set();
let n = 0;
while (n < limit) {
  const c = pick(reads);
  const req = JSON.parse(JSON.stringify(c.request));
  if (c.protocol === 'graphql') {
    if (req.body?.query) {
      req.body.query = mutateGraphql(req.body.query);
      if (rnd() < 0.3) req.body.query = mutateGraphql(req.body.query);
    } else continue;
  } else {
    req.path = mutatePath(req.path);
    if (rnd() < 0.3) req.path = mutatePath(req.path);
  }
  const key = JSON.stringify(req);
  if (seen.has(key)) continue;
  seen.add(key);
  n++;
  let s, o;
  try {
    [s, o] = await Promise.all([send(strapiBase, STRAPI_TOKEN, req), send(serviceBase, serviceToken, req)]);
  } catch (e) {
    console.error('send failed', e.message);
    continue;
  }
  const d = s.status !== o.status ? { path: 'status', s: s.status, o: o.status } : diff(s.body, o.body);
  results.push({
    from: c.id,
    req: { method: req.method, path: req.path, body: req.body, auth: req.auth },
    same: !d,
    d,
    s: d ? s : undefined,
    o: d ? o : undefined,
  });
  if (n % 50 === 0) {
    // a partial report, in case the run is cut short
    writeFileSync(
      outFile,
      JSON.stringify({ compared: results.length, diffs: results.filter((x) => !x.same) }, null, 1),
    );
    process.stderr.write(`${n} compared\n`);
  }
}
const errOf = (r) =>
  r?.body?.error
    ? `${r.body.error.name}: ${String(r.body.error.message).slice(0, 60)}`
    : r?.body?.errors
      ? `GQL ${String(r.body.errors[0]?.message).slice(0, 60)}`
      : '';
const classes = {};
for (const r of results.filter((x) => !x.same)) {
  const key =
    r.d.path === 'status'
      ? `status ${r.d.s}->${r.d.o} | S ${errOf(r.s)} | O ${errOf(r.o)}`
      : `${r.s.status} ${r.d.path.replace(/\[\d+\]/g, '[N]')} | S ${errOf(r.s)} | O ${errOf(r.o)}`;
  (classes[key] ??= []).push(results.indexOf(r));
}
writeFileSync(
  outFile,
  JSON.stringify({ compared: results.length, classes, diffs: results.filter((x) => !x.same) }, null, 1),
);
console.log(`${results.length} compared, ${results.filter((x) => x.same).length} same`);
for (const [k, v] of Object.entries(classes).sort((a, b) => b[1].length - a[1].length))
  console.log(String(v.length).padStart(4), k.slice(0, 220));

// Query shapes beyond the judged scenarios, and a few writes, on a copy of kept bench data
// (bench:scenarios --data DIR): for each, the documents and index keys the engine examined, the
// MongoDB commands sent and the milliseconds per request (sequential requests, the service in
// this process as `start` runs it).
// The first three figures do not depend on the machine's load; the milliseconds do. Used to find
// shapes whose cost grows with the content (a sort through a relation, an inverse relation in its
// link order, relation counts, `_q`...) before a user does.
//   npm run bench:shapes -- --shared ../shared --data DIR [--requests 5] [--only TEXT]
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { createServer } from '../src/app.js';
import { startEngineThread } from '../src/database/engine-thread.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

const { values } = parseArgs({
  options: {
    shared: { type: 'string', default: '../shared' },
    data: { type: 'string' },
    requests: { type: 'string', default: '5' },
    only: { type: 'string' },
  },
});
if (!values.data) {
  console.error('bench:shapes: --data DIR is required (a directory `bench:scenarios --data DIR` kept)');
  process.exit(2);
}

/** [label, path] for REST reads; a GraphQL query when it starts with `{`; `POST|PUT path body` for writes. */
const SHAPES: Array<[string, string]> = [
  ['list, page 1', '/api/articles?pagination[pageSize]=25'],
  ['list, page 300', '/api/articles?pagination[page]=300&pagination[pageSize]=25'],
  ['sort on a field', '/api/articles?sort=title:asc&pagination[pageSize]=25'],
  ['sort through a relation', '/api/articles?sort=author.name:asc&pagination[pageSize]=25'],
  ['filter through to-many', '/api/articles?filters[tags][name][$eq]=JavaScript&populate=tags&pagination[pageSize]=25'],
  [
    '$or through two relations',
    '/api/articles?filters[$or][0][category][name][$eq]=Technology&filters[$or][1][author][name][$eq]=Bob&pagination[pageSize]=25',
  ],
  ['range on a number', '/api/articles?filters[views][$gt]=5000&pagination[pageSize]=25'],
  ['$containsi on a long text', '/api/articles?filters[body][$containsi]=lorem&pagination[pageSize]=25'],
  ['_q', '/api/articles?_q=guide&pagination[pageSize]=25'],
  ['populate=*, 100 entries', '/api/articles?pagination[pageSize]=100&populate=*'],
  ['relation counts, to-many inverse', '/api/tags?populate[articles][count]=true'],
  ['relation counts, one-to-many inverse', '/api/categories?populate[articles][count]=true'],
  [
    'inverse to-many, 5 per entry',
    '/api/tags?populate[articles][fields][0]=title&populate[articles][pagination][pageSize]=5',
  ],
  ['GraphQL list', '{ articles(pagination: { pageSize: 25 }) { data { id attributes { title } } } }'],
  [
    'GraphQL sort through a relation',
    '{ articles(sort: "category.name:desc", pagination: { pageSize: 25 }) { data { id attributes { title } } } }',
  ],
  [
    'GraphQL articles → tags → 5 articles',
    '{ articles(pagination: { pageSize: 25 }) { data { attributes { title tags { data { attributes { name articles(pagination: { pageSize: 5 }) { data { attributes { title } } } } } } } } } }',
  ],
  ['GraphQL tags → their articles', '{ tags { data { attributes { name articles { data { id } } } } } }'],
  [
    'GraphQL populate, filter via relation',
    '{ authors { data { id attributes { name articles(filters: { tags: { name: { eq: "JavaScript" } } }) { data { id } } } } } }',
  ],
  ['filter through two hops (inverse side)', '/api/tags?filters[articles][category][name][$eq]=Technology'],
  [
    'create with author, category, 3 tags',
    'POST /api/articles {"data":{"title":"Shape","author":1,"category":2,"tags":[1,2,3],"seo":{"metaTitle":"m"}}}',
  ],
  ['update a title', 'PUT /api/articles/5000 {"data":{"title":"Shape update"}}'],
  ['connect a tag from the article', 'PUT /api/articles/5001 {"data":{"tags":{"connect":[4]}}}'],
  ['connect an article from the tag', 'PUT /api/tags/1 {"data":{"articles":{"connect":[5002]}}}'],
];

/** The status and the start of the error message of a refused request. */
function refusal(status: number, body: string): string {
  const message = /"message":"([^"]{0,80})/.exec(body)?.[1] ?? body.slice(0, 80);
  return `${status} ${message}`;
}

process.env.JWT_SECRET ??= randomBytes(32).toString('base64');
process.env.API_TOKEN_SALT ??= randomBytes(32).toString('base64');
// a copy: reads leave the kept data as it was, whatever the engine writes at start
const work = mkdtempSync(join(tmpdir(), 'content-service-shapes-'));
cpSync(join(resolve(values.data), 'engine'), work, { recursive: true });
const engine = await startEngineThread({ host: '127.0.0.1', dataDir: work });
const uri = new URL(`${engine.socketUri.replace(/\/?$/, '/')}content`);
uri.searchParams.set('monitorCommands', 'true');
const service = await createServer({
  appDir: join(resolve(values.shared), 'conformance'),
  databaseUri: uri.toString(),
  config: { env: 'production' },
});
await engine.decoded;
const { url } = await service.start({ port: 0, host: '127.0.0.1' });
const { accessKey } = await createApiToken(service.context, { name: 'shapes', type: 'full-access' });
const stats = await MongoClient.connect(engine.uri);
const examined = async () => {
  const status = await stats.db('admin').command({ serverStatus: 1 });
  const q = status.metrics.queryExecutor as { scanned: unknown; scannedObjects: unknown };
  return { keys: Number(q.scanned), docs: Number(q.scannedObjects) };
};
let commands = 0;
service.context.connection.getClient().on('commandStarted', () => commands++);
const headers = { authorization: `Bearer ${accessKey}`, 'content-type': 'application/json' };
const n = Number(values.requests);

console.log('per request: documents examined, index keys examined, MongoDB commands, ms (mean), answer KB');
try {
  for (const [label, shape] of SHAPES) {
    if (values.only && !label.includes(values.only)) continue;
    const graphql = shape.startsWith('{');
    const write = /^(POST|PUT) (\S+) (.*)$/.exec(shape);
    const send = () =>
      write
        ? fetch(url + write[2], { method: write[1], headers, body: write[3] })
        : fetch(url + (graphql ? '/graphql' : shape), {
            method: graphql ? 'POST' : 'GET',
            headers,
            body: graphql ? JSON.stringify({ query: shape }) : undefined,
          });
    const warm = await send(); // the first request of a shape builds its indexes and plans
    const body = await warm.text();
    const size = Buffer.byteLength(body);
    // a refusal (a read over its time budget, an answer over 16 MB) is a figure too
    const refused =
      warm.status !== 200 ? refusal(warm.status, body) : /"errors":\[/.test(body) ? refusal(200, body) : '';
    if (refused) {
      console.log(`${label.padEnd(38)} refused: ${refused}`);
      continue;
    }
    const before = await examined();
    commands = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await (await send()).arrayBuffer();
    const ms = (performance.now() - t0) / n;
    const after = await examined();
    const per = (x: number) => String(Math.round(x / n)).padStart(7);
    console.log(
      `${label.padEnd(38)} docs ${per(after.docs - before.docs)} keys ${per(after.keys - before.keys)} cmds ${per(commands)} ${ms.toFixed(1).padStart(7)} ms ${(size / 1024).toFixed(1).padStart(8)} KB`,
    );
  }
} finally {
  await stats.close();
  await service.stop();
  await engine.stop();
  rmSync(work, { recursive: true, force: true });
}

// Tries the service on an existing Strapi v4 project, as a user bringing it would:
//   npm run try-project -- <project dir> [--schemas-only]
// Starts the service in memory on the directory (`--schemas-only`: on a copy of its `src/` alone,
// when its config/ needs packages the project installs), prints the start-up notices, then per api
// content-type creates an entry (required attributes filled, to-one and to-many relations linked to
// an existing entry), reads it back with populate=*, lists, updates it, and queries it through
// GraphQL. Ends with `N passed, M failed` (requests answered 2xx, and GraphQL answers without errors).
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { createServer, type ContentService } from '../src/app.js';
import {
  isManagedField,
  type Attribute,
  type ContentType,
  type Registry,
  type Schema,
} from '../src/content-types/index.js';
import { findOneQueryName, findQueryName, typeName } from '../src/plugins/graphql/naming.js';
import { createApiToken } from '../src/plugins/users-permissions/index.js';

type Json = Record<string, unknown>;

const NESTING = 3;

/** A value each attribute type accepts (respecting length and range bounds); undefined when none is needed. */
function sample(registry: Registry, attribute: Attribute, name: string, depth: number): unknown {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext': {
      if (attribute.regex) return undefined;
      const text = `${name}-sample`.padEnd(attribute.minLength ?? 0, 'x');
      return attribute.maxLength ? text.slice(0, attribute.maxLength) : text;
    }
    case 'email':
      return `${name.toLowerCase()}-${Date.now()}@example.com`;
    case 'uid':
      return `${name.toLowerCase()}-${Date.now().toString(36)}`;
    case 'password':
      return 'Password123';
    case 'enumeration':
      return attribute.enum?.[0];
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal':
      return attribute.min !== undefined ? Number(attribute.min) : 1;
    case 'boolean':
      return true;
    case 'date':
      return '2024-01-02';
    case 'time':
      return '10:11:12.000';
    case 'datetime':
    case 'timestamp':
      return '2024-01-02T03:04:05.000Z';
    case 'json':
      return { sample: true };
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: 'sample' }] }];
    case 'component': {
      const component = registry.component(attribute.component);
      if (!component || depth >= NESTING) return undefined;
      const value = fill(registry, component, depth + 1);
      return attribute.repeatable ? Array.from({ length: Math.max(1, attribute.min ?? 1) }, () => value) : value;
    }
    case 'dynamiczone': {
      const uid = attribute.components[0] ?? '';
      const component = registry.component(uid);
      if (!component || depth >= NESTING) return undefined;
      return [{ __component: uid, ...fill(registry, component, depth + 1) }];
    }
    default:
      return undefined;
  }
}

function fill(registry: Registry, schema: Schema, depth: number): Json {
  const data: Json = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (isManagedField(schema, name)) continue;
    const value = sample(registry, attribute, name, depth);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

class Trial {
  passed = 0;
  failed: string[] = [];
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<Json> {
    const res = await fetch(this.base + path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Json = {};
    try {
      parsed = JSON.parse(text) as Json;
    } catch {
      parsed = { text };
    }
    const ok = res.ok && !(path === '/graphql' && Array.isArray(parsed.errors));
    if (ok) this.passed += 1;
    else this.failed.push(`${method} ${path} ${res.status} ${text.slice(0, 240)}`);
    return parsed;
  }
}

/** GraphQL selection of a content-type: the readable scalars and relation ids its GraphQL type has. */
function selection(ct: ContentType, exposed: Set<string>): string {
  const fields = Object.entries(ct.attributes).flatMap(([name, attribute]) => {
    if (!exposed.has(name)) return [];
    if (attribute.private || attribute.type === 'password' || name === 'localizations') return [];
    if (attribute.type === 'component' || attribute.type === 'dynamiczone') return [];
    if (attribute.type === 'relation' || attribute.type === 'media')
      return ct.relations[name] ? [`${name} { data { id } }`] : [];
    return [name];
  });
  return `data { id attributes { ${fields.join(' ')} } }`;
}

async function tryContentType(trial: Trial, registry: Registry, ct: ContentType, graphql: boolean): Promise<void> {
  const data = fill(registry, ct, 0);
  // a project without the GraphQL plugin has no /graphql, as in Strapi
  const gql = async (query: string): Promise<Json> => (graphql ? trial.call('POST', '/graphql', { query }) : {});
  const introspection = await gql(`{ __type(name: "${typeName(ct)}") { fields { name } } }`);
  const type = (introspection.data as { __type?: { fields?: Array<{ name: string }> } } | undefined)?.__type;
  const exposed = new Set((type?.fields ?? []).map((field) => field.name));
  if (ct.kind === 'singleType') {
    await trial.call('PUT', `/api/${ct.singularName}`, { data });
    await trial.call('GET', `/api/${ct.singularName}?populate=*`);
    await gql(`{ ${findOneQueryName(ct)} { ${selection(ct, exposed)} } }`);
    return;
  }
  for (const [name, relation] of Object.entries(ct.relations)) {
    const target = registry.contentType(relation.target);
    if (!relation.stored || relation.media || name === 'localizations' || target?.namespace !== 'api') continue;
    if (target.kind !== 'collectionType') continue;
    const list = await trial.call('GET', `/api/${target.pluralName}?pagination[pageSize]=1&publicationState=preview`);
    const first = Array.isArray(list.data) ? (list.data[0] as Json | undefined) : undefined;
    if (typeof first?.id === 'number') data[name] = relation.multiple ? [first.id] : first.id;
  }
  const created = await trial.call('POST', `/api/${ct.pluralName}`, { data });
  const id = (created.data as Json | null | undefined)?.id;
  await trial.call('GET', `/api/${ct.pluralName}?populate=*&publicationState=preview`);
  if (typeof id === 'number') {
    await trial.call('GET', `/api/${ct.pluralName}/${id}?populate=*&publicationState=preview`);
    await trial.call('PUT', `/api/${ct.pluralName}/${id}`, { data });
  }
  const args = ct.draftAndPublish ? '(publicationState: PREVIEW)' : '';
  await gql(`{ ${findQueryName(ct)}${args} { ${selection(ct, exposed)} } }`);
}

async function main(): Promise<void> {
  const [dirArg, ...flags] = process.argv.slice(2);
  if (!dirArg) throw new Error('usage: npm run try-project -- <Strapi v4 project dir> [--schemas-only]');
  let appDir = resolve(dirArg);
  if (flags.includes('--schemas-only')) {
    const copy = mkdtempSync(join(tmpdir(), 'cs-try-'));
    cpSync(join(appDir, 'src'), join(copy, 'src'), { recursive: true });
    appDir = copy;
  }
  const notices: string[] = [];
  let started = false;
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const { msg, err, level } = JSON.parse(line) as { msg: string; level: number; err?: { message?: string } };
        // at start-up every notice; once the trial runs, warnings and errors only (not each request's line)
        if (started && level < 40) return;
        notices.push(err?.message && !msg.includes(err.message) ? `${msg}: ${err.message}` : msg);
      },
    },
  );
  let service: ContentService;
  try {
    service = await createServer({ appDir, memory: true, logger });
  } catch (err) {
    // what start-up told before it stopped (a file that did not load names why)
    for (const notice of notices) console.log(`notice: ${notice}`);
    console.log(`did not start: ${(err as Error).message}`);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
    return;
  }
  for (const notice of notices.splice(0)) console.log(`notice: ${notice}`);
  started = true;
  const { url } = await service.start({ port: 0, host: '127.0.0.1' });
  const { accessKey } = await createApiToken(service.context, { name: 'try-project', type: 'full-access' });
  const trial = new Trial(url, accessKey);
  const registry = service.context.registry;
  const graphql = service.context.config.plugins.graphql?.enabled !== false;
  if (!graphql) console.log('notice: the GraphQL plugin is off: GraphQL is not tried');
  for (const ct of registry.listContentTypes().filter((c) => c.namespace === 'api'))
    await tryContentType(trial, registry, ct, graphql);
  await service.stop();
  // what the service logged while it was tried (a 500's error, a hook's failure)
  for (const notice of notices) console.log(`log: ${notice}`);
  for (const failure of trial.failed) console.log(`failed: ${failure}`);
  console.log(`${trial.passed} passed, ${trial.failed.length} failed`);
  if (trial.failed.length > 0) process.exitCode = 1;
}

await main();

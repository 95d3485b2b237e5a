/**
 * REST requests built from the grammar of Strapi's query language and the app's schemas:
 * `fields`, `populate` (every form), `filters` (every operator, logical nesting, relations and
 * components, hostile keys), `sort`, `pagination`, `locale`, `publicationState`; and write bodies
 * with wrong types, deep nesting and huge arrays. Query strings are written by hand (not qs), so
 * `__proto__` keys, malformed percent-encoding and NUL bytes reach the service as sent.
 */
import type { Attribute, ContentType, Registry, Schema } from '../../src/content-types/index.js';
import { LOGICAL_OPERATORS, VALUE_OPERATORS } from '../../src/query/operators.js';
import type { Random } from './random.js';
import { deepJson, jsonObject, jsonValue, nested, NASTY_NUMBERS, NASTY_STRINGS, queryScalar } from './values.js';

export interface FuzzRequest {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  /** `Content-Encoding` (a body claiming a compression it does not have) */
  contentEncoding?: string;
  /** what generated it, for the report */
  kind: string;
  /** GraphQL: how many root fields it runs (each mutation field writes on its own) */
  rootFields?: number;
}

type Param = [string[], string];

const OPERATORS = [...Object.keys(VALUE_OPERATORS), ...LOGICAL_OPERATORS];
const JUNK_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  '$regex',
  '$expr',
  'id',
  '_id',
  'x',
  '',
  '0',
  'a.b',
];

export class RestGenerator {
  /**
   * For half the requests, only the value at one place is odd and everything else is what a
   * client would send, so that requests get past validation into the query and write paths.
   */
  private clean = false;

  constructor(
    private readonly rnd: Random,
    private readonly registry: Registry,
  ) {}

  private get apiTypes(): ContentType[] {
    return this.registry.listContentTypes().filter((ct) => ct.namespace === 'api');
  }

  read(): FuzzRequest {
    const rnd = this.rnd;
    this.clean = rnd.chance(0.5);
    const ct = rnd.pick(this.apiTypes);
    const base = ct.kind === 'singleType' ? `/api/${ct.singularName}` : `/api/${ct.pluralName}`;
    const byId = ct.kind === 'collectionType' && rnd.chance(0.3);
    const path = byId ? `${base}/${this.id()}` : base;
    const params = this.queryParams(ct);
    return { method: 'GET', path: `${path}${this.queryString(params)}`, kind: byId ? 'rest-findOne' : 'rest-find' };
  }

  /** The plugins' routes: users, roles, upload files, locales (their own query handling). */
  pluginRead(): FuzzRequest {
    const rnd = this.rnd;
    this.clean = rnd.chance(0.5);
    const user = this.registry.contentType('plugin::users-permissions.user');
    const file = this.registry.contentType('plugin::upload.file');
    const [path, schema] = rnd.pick([
      ['/api/users', user],
      [`/api/users/${this.id()}`, user],
      ['/api/users/count', user],
      ['/api/users/me', user],
      ['/api/upload/files', file],
      [`/api/upload/files/${this.id()}`, file],
      ['/api/users-permissions/roles', undefined],
      [`/api/users-permissions/roles/${rnd.int(0, 4)}`, undefined],
      ['/api/i18n/locales', undefined],
    ] as const);
    const params = schema ? this.queryParams(schema) : [];
    if (path.startsWith('/api/upload/files') && rnd.chance(0.5))
      params.push([['start'], queryScalar(rnd)], [['limit'], queryScalar(rnd)]);
    return { method: 'GET', path: `${path}${this.queryString(params)}`, kind: 'plugin-read' };
  }

  /** Plugin writes: uploads with broken multipart bodies, user updates, roles. */
  pluginWrite(): FuzzRequest {
    const rnd = this.rnd;
    this.clean = rnd.chance(0.5);
    const user = this.registry.contentType('plugin::users-permissions.user');
    const boundary = 'fuzzboundary';
    const part = (name: string, value: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${value}\r\n`;
    return rnd.weighted<FuzzRequest>([
      [
        3,
        () => ({
          method: 'POST',
          path: rnd.pick(['/api/upload', '/graphql']),
          body: rnd.pick([
            `${part('files', 'not an image', rnd.pick(['a.png', 'a', '../../x.txt', 'a\u0000.png', 'é.jpg', '']))}--${boundary}--\r\n`,
            `${part('fileInfo', JSON.stringify(jsonValue(rnd, 2)))}${part('files', 'GIF89a', 'x.gif')}--${boundary}--\r\n`,
            `${part('ref', rnd.pick(NASTY_STRINGS))}${part('refId', rnd.pick(NASTY_STRINGS))}${part('field', 'cover')}${part('files', 'x', 'x.txt')}--${boundary}--\r\n`,
            `${part('operations', JSON.stringify({ query: 'mutation($f: Upload!) { upload(file: $f) { data { id } } }', variables: { f: null } }))}${part('map', rnd.pick(['{"0":["variables.f"]}', '{"0":["x"]}', '[]', '{']))}${part('0', 'bytes', 'a.txt')}--${boundary}--\r\n`,
            `--${boundary}\r\nbroken`,
            '',
          ]),
          contentType: rnd.chance(0.9) ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data',
          kind: 'plugin-upload',
        }),
      ],
      [
        2,
        () => ({
          method: 'PUT',
          path: `/api/users/${rnd.chance(0.8) ? this.id() : percentEncode(rnd.pick(NASTY_STRINGS)) || 'x'}`,
          body: JSON.stringify(user ? this.dataObject(user, 1) : jsonObject(rnd)),
          contentType: 'application/json',
          kind: 'plugin-user-update',
        }),
      ],
      [
        1,
        () => ({
          method: rnd.pick(['POST', 'PUT', 'DELETE']),
          path: rnd.pick(['/api/users-permissions/roles', `/api/users-permissions/roles/${rnd.int(0, 6)}`]),
          body: JSON.stringify(
            rnd.chance(0.7)
              ? { name: rnd.pick(NASTY_STRINGS), description: jsonValue(rnd, 1), permissions: jsonValue(rnd, 3) }
              : jsonValue(rnd, 2),
          ),
          contentType: 'application/json',
          kind: 'plugin-role',
        }),
      ],
      [
        1,
        () => ({
          method: 'DELETE',
          path: `/api/upload/files/${rnd.chance(0.5) ? rnd.int(1000, 2000) : percentEncode(rnd.pick(NASTY_STRINGS)) || 'x'}`,
          kind: 'plugin-upload-delete',
        }),
      ],
    ]);
  }

  /** A path the routes were not written for: malformed encoding, NUL, odd ids, unknown routes. */
  oddPath(): FuzzRequest {
    const rnd = this.rnd;
    const ct = rnd.pick(this.apiTypes);
    const path = rnd.pick([
      `/api/${ct.pluralName}/%zz`,
      `/api/${ct.pluralName}/%`,
      `/api/${ct.pluralName}/%E0%A4%A`,
      `/api/${ct.pluralName}/1%00`,
      `/api/${ct.pluralName}%2F1`,
      `/api/${ct.pluralName}/..%2F..%2Fetc%2Fpasswd`,
      `/api/${ct.pluralName}/${percentEncode(rnd.pick(NASTY_STRINGS))}`,
      `/api/${ct.pluralName}/1/localizations`,
      `/api/%zz`,
      `/%zz`,
      `/graphql%zz`,
      `/api/users/%zz`,
      `/api/users/${percentEncode(rnd.pick(NASTY_STRINGS))}`,
      `/api/users-permissions/roles/${percentEncode(rnd.pick(NASTY_STRINGS))}`,
      `/api/${ct.singularName}`,
      `/_health%00`,
      `/api/i18n/locales?x=%zz`,
      `/api/users/me`,
      `/api/users/count?filters[x]=1`,
    ]);
    const method = rnd.pick(['GET', 'GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS']);
    const body = ['PUT', 'POST', 'PATCH'].includes(method) ? JSON.stringify({ data: jsonObject(rnd) }) : undefined;
    return { method, path, body, contentType: body ? 'application/json' : undefined, kind: 'odd-path' };
  }

  /** A create, update or delete (REST), bodies of every wrong shape. */
  write(): FuzzRequest {
    const rnd = this.rnd;
    this.clean = rnd.chance(0.5);
    const ct = rnd.pick(this.apiTypes);
    const query = rnd.chance(0.3) ? this.queryString(this.queryParams(ct)) : '';
    if (ct.kind === 'singleType') {
      const method = rnd.chance(0.85) ? 'PUT' : 'DELETE';
      return this.withBody(method, `/api/${ct.singularName}${query}`, ct, 'rest-single-write');
    }
    return rnd.weighted<FuzzRequest>([
      [5, () => this.withBody('POST', `/api/${ct.pluralName}${query}`, ct, 'rest-create')],
      [4, () => this.withBody('PUT', `/api/${ct.pluralName}/${this.id()}${query}`, ct, 'rest-update')],
      [1, () => ({ method: 'DELETE', path: `/api/${ct.pluralName}/${this.junkId()}${query}`, kind: 'rest-delete' })],
      [
        1,
        () =>
          this.withBody('POST', `/api/${ct.pluralName}/${this.id()}/localizations`, ct, 'rest-localization', {
            locale: rnd.pick(['fr', 'en', 'de', '', 'x'.repeat(50), 1, null]),
            ...this.dataObject(ct, 1),
          }),
      ],
      [
        1,
        () => ({
          method: 'POST',
          path: rnd.pick(['/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password']),
          body: JSON.stringify(
            rnd.chance(0.8)
              ? {
                  identifier: jsonValue(rnd, 1),
                  password: jsonValue(rnd, 1),
                  username: jsonValue(rnd, 1),
                  email: jsonValue(rnd, 1),
                }
              : jsonValue(rnd, 3),
          ),
          contentType: 'application/json',
          kind: 'rest-auth',
        }),
      ],
    ]);
  }

  private withBody(method: string, path: string, ct: ContentType, kind: string, data?: unknown): FuzzRequest {
    const rnd = this.rnd;
    return rnd.weighted<FuzzRequest>([
      [
        10,
        () => ({
          method,
          path,
          body: JSON.stringify({ data: data ?? this.dataObject(ct, 2) }),
          contentType: 'application/json',
          kind,
        }),
      ],
      [
        1,
        () => ({
          method,
          path,
          body: JSON.stringify(jsonValue(rnd, 3)),
          contentType: 'application/json',
          kind: `${kind}-junk`,
        }),
      ],
      [
        1,
        () => ({
          method,
          path,
          body: `{"data":${deepJson(rnd, rnd.int(50, 100_000))}}`,
          contentType: 'application/json',
          kind: `${kind}-deep`,
        }),
      ],
      [
        1,
        () => {
          const name = rnd.pick(Object.keys(ct.attributes));
          return {
            method,
            path,
            body: `{"data":{"${name}":${deepJson(rnd, rnd.int(50, 100_000))}}}`,
            contentType: 'application/json',
            kind: `${kind}-deep-attribute`,
          };
        },
      ],
      [
        1,
        () => ({
          method,
          path,
          body: rnd.pick([
            '{',
            '{"data":',
            'null',
            '"x"',
            '[]',
            '{"data":{"title":"\\ud800"}}',
            '\u0000',
            '{"data":{}}'.repeat(2),
          ]),
          contentType: rnd.pick([
            'application/json',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/vnd.api+json',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
          ]),
          contentEncoding: rnd.chance(0.3) ? rnd.pick(['gzip', 'deflate', 'br', 'identity', 'x-nope']) : undefined,
          kind: `${kind}-raw`,
        }),
      ],
    ]);
  }

  /** `data` for a write: attributes with right or wrong values, relation inputs in every form. */
  dataObject(schema: Schema, depth: number): Record<string, unknown> {
    const rnd = this.rnd;
    const out: Record<string, unknown> = {};
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (this.clean ? !attribute.required && !rnd.chance(0.5) : !rnd.chance(0.5)) continue;
      if (this.clean && (isSystem(name) || attribute.private)) continue;
      Object.defineProperty(out, name, {
        value: this.attributeValue(attribute, depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (!this.clean && rnd.chance(0.15))
      Object.defineProperty(out, rnd.pick(JUNK_KEYS), {
        value: jsonValue(rnd, 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }

  private attributeValue(attribute: Attribute, depth: number): unknown {
    const rnd = this.rnd;
    if (this.clean && attribute.type !== 'component' && attribute.type !== 'dynamiczone')
      return rnd.chance(0.95) ? this.plausible(attribute) : jsonValue(rnd, 1);
    if (rnd.chance(0.2)) return jsonValue(rnd, 2);
    switch (attribute.type) {
      case 'relation':
      case 'media':
        return this.relationInput();
      case 'component': {
        const component = this.registry.component(attribute.component);
        const one = () =>
          component && depth > 0
            ? { ...this.dataObject(component, depth - 1), ...(rnd.chance(0.2) ? { id: this.id() } : {}) }
            : jsonObject(rnd);
        return attribute.repeatable ? Array.from({ length: rnd.chance(0.05) ? 3000 : rnd.int(0, 3) }, one) : one();
      }
      case 'dynamiczone':
        return Array.from({ length: rnd.int(0, 3) }, () => {
          const uid = rnd.chance(0.85)
            ? rnd.pick(attribute.components)
            : rnd.pick(['blocks.nope', '', 'shared.seo', '__proto__']);
          const component = this.registry.component(uid);
          return {
            __component: uid,
            ...(component && depth > 0 ? this.dataObject(component, depth - 1) : jsonObject(rnd)),
          };
        });
      case 'enumeration':
        return rnd.chance(0.6) && attribute.enum ? rnd.pick(attribute.enum) : rnd.pick(NASTY_STRINGS);
      case 'integer':
      case 'biginteger':
      case 'float':
      case 'decimal':
        return rnd.chance(0.6) ? rnd.pick(NASTY_NUMBERS) : rnd.pick(NASTY_STRINGS);
      case 'boolean':
        return rnd.pick([true, false, 'true', 0, 1, 't', 'yes', null]);
      case 'json':
        return rnd.chance(0.1) ? nested(rnd, rnd.int(20, 1000)) : jsonValue(rnd, 3);
      default:
        return rnd.chance(0.8) ? rnd.pick(NASTY_STRINGS) : rnd.pick(NASTY_NUMBERS);
    }
  }

  private relationInput(): unknown {
    const rnd = this.rnd;
    const ids = () => Array.from({ length: rnd.chance(0.03) ? 20000 : rnd.int(0, 4) }, () => this.relationRef());
    return rnd.weighted<unknown>([
      [3, () => this.relationRef()],
      [3, () => ids()],
      [
        4,
        () => {
          const input: Record<string, unknown> = {};
          for (const key of rnd.some(['connect', 'disconnect', 'set', 'options', 'junk']))
            input[key] = rnd.chance(0.8) ? ids() : jsonValue(rnd, 2);
          return input;
        },
      ],
      [1, () => null],
    ]);
  }

  private relationRef(): unknown {
    const rnd = this.rnd;
    return rnd.weighted<unknown>([
      [5, () => this.id()],
      [2, () => String(this.id())],
      [
        3,
        () => ({
          id: rnd.chance(0.8) ? this.id() : jsonValue(rnd, 1),
          ...(rnd.chance(0.5)
            ? {
                position: rnd.pick([
                  { before: this.id() },
                  { after: this.id() },
                  { start: true },
                  { end: true },
                  { before: 'x' },
                  'start',
                  jsonObject(rnd),
                ]),
              }
            : {}),
        }),
      ],
      [1, () => jsonValue(rnd, 1)],
    ]);
  }

  queryParams(ct: ContentType): Param[] {
    const rnd = this.rnd;
    const params: Param[] = [];
    if (rnd.chance(0.3)) params.push(...this.fields(ct));
    if (rnd.chance(0.5)) params.push(...this.populate(ct));
    if (rnd.chance(0.5)) params.push(...this.filters(ct, ['filters'], 0));
    if (rnd.chance(0.3)) params.push(...this.sort(ct));
    if (rnd.chance(0.3)) params.push(...this.pagination(['pagination']));
    if (rnd.chance(0.15))
      params.push([['locale'], rnd.pick(['en', 'fr', 'all', 'de', '', '*', rnd.pick(NASTY_STRINGS)])]);
    if (rnd.chance(0.15)) params.push([['publicationState'], rnd.pick(['live', 'preview', 'LIVE', 'x', ''])]);
    if (rnd.chance(0.05))
      params.push([[rnd.pick(['fallbackLocale', 'status', 'x', '__proto__', 'constructor'])], queryScalar(rnd)]);
    return params;
  }

  private attributeNames(schema: Schema): string[] {
    return Object.keys(schema.attributes);
  }

  private name(schema: Schema): string {
    const rnd = this.rnd;
    if (this.clean) {
      const readable = this.attributeNames(schema).filter((name) => !schema.attributes[name]?.private);
      if (readable.length > 0) return rnd.pick(readable);
    }
    return rnd.chance(0.85) && this.attributeNames(schema).length > 0
      ? rnd.pick(this.attributeNames(schema))
      : rnd.pick([...JUNK_KEYS, 'id', '*']);
  }

  private fields(schema: Schema, prefix: string[] = ['fields']): Param[] {
    const rnd = this.rnd;
    if (rnd.chance(0.3)) return [[prefix, Array.from({ length: rnd.int(1, 3) }, () => this.name(schema)).join(',')]];
    return Array.from({ length: rnd.int(0, 3) }, (_, i): Param => [
      [...prefix, rnd.chance(0.9) ? String(i) : rnd.pick(JUNK_KEYS)],
      this.name(schema),
    ]);
  }

  private populate(schema: Schema, prefix: string[] = ['populate'], depth = 0): Param[] {
    const rnd = this.rnd;
    if (this.clean && rnd.chance(0.5))
      return [[prefix, Array.from({ length: rnd.int(1, 3) }, () => this.dottedPath(schema, rnd.int(1, 3))).join(',')]];
    return rnd.weighted<Param[]>([
      [2, () => [[prefix, rnd.pick(['*', 'true', 'false', '', '**', '*,*'])]]],
      [
        3,
        () => [[prefix, Array.from({ length: rnd.int(1, 3) }, () => this.dottedPath(schema, rnd.int(1, 4))).join(',')]],
      ],
      [
        2,
        () =>
          Array.from({ length: rnd.int(1, 3) }, (_, i): Param => [
            [...prefix, String(i)],
            this.dottedPath(schema, rnd.int(1, 3)),
          ]),
      ],
      [depth < 4 ? 4 : 0, () => this.populateObject(schema, prefix, depth)],
      [1, () => this.populateBomb(schema, prefix)],
    ]);
  }

  private populateObject(schema: Schema, prefix: string[], depth: number): Param[] {
    const rnd = this.rnd;
    const out: Param[] = [];
    for (const name of rnd.some(this.attributeNames(schema), 3)) {
      const attribute = schema.attributes[name];
      const at = [...prefix, name];
      const target = this.targetOf(attribute);
      if (!target || rnd.chance(0.2)) {
        out.push([at, rnd.pick(['*', 'true', 'false', '1', '0', 'x'])]);
        continue;
      }
      if (attribute?.type === 'dynamiczone' && rnd.chance(0.5)) {
        const uid = rnd.chance(0.9) ? rnd.pick(attribute.components) : rnd.pick(JUNK_KEYS);
        const component = this.registry.component(uid);
        if (component) out.push(...this.populate(component, [...at, 'on', uid, 'populate'], depth + 1));
        else out.push([[...at, 'on', uid], 'true']);
        continue;
      }
      for (const key of rnd.some(
        [
          'populate',
          'fields',
          'filters',
          'sort',
          'pagination',
          'start',
          'limit',
          'publicationState',
          'on',
          'count',
          '__proto__',
        ],
        3,
      )) {
        if (key === 'populate') out.push(...this.populate(target, [...at, 'populate'], depth + 1));
        else if (key === 'fields') out.push(...this.fields(target, [...at, 'fields']));
        else if (key === 'filters') out.push(...this.filters(target, [...at, 'filters'], 1));
        else if (key === 'sort') out.push([[...at, 'sort'], this.sortValue(target)]);
        else if (key === 'pagination') out.push(...this.pagination([...at, 'pagination']));
        else out.push([[...at, key], queryScalar(rnd)]);
      }
    }
    return out;
  }

  /** Deep or wide populate requests: the shapes that once stalled the engine. */
  private populateBomb(schema: Schema, prefix: string[]): Param[] {
    const rnd = this.rnd;
    return rnd.weighted<Param[]>([
      [2, () => [[prefix, this.dottedPath(schema, rnd.int(6, 40))]]],
      [
        1,
        () => [
          [prefix, Array.from({ length: rnd.int(20, 200) }, () => this.dottedPath(schema, rnd.int(2, 9))).join(',')],
        ],
      ],
      [1, () => [[prefix, `${this.dottedPath(schema, rnd.int(1, 6))}.*`]]],
      [
        1,
        () => [
          [[...prefix, ...Array.from({ length: rnd.int(5, 12) }, () => [this.name(schema), 'populate']).flat()], '*'],
        ],
      ],
    ]);
  }

  /** `a.b.c`: relation and component names walked through the schemas (sometimes junk). */
  private dottedPath(schema: Schema, length: number): string {
    const rnd = this.rnd;
    const parts: string[] = [];
    let current: Schema | undefined = schema;
    for (let i = 0; i < length; i++) {
      if (!current) {
        parts.push(rnd.pick(['a', '*', '', 'x']));
        continue;
      }
      const populable = this.attributeNames(current).filter((name) => this.targetOf(current?.attributes[name]));
      const name = populable.length > 0 && rnd.chance(0.9) ? rnd.pick(populable) : this.name(current);
      parts.push(name);
      current = this.targetOf(current.attributes[name]);
    }
    return parts.join('.');
  }

  private targetOf(attribute: Attribute | undefined): Schema | undefined {
    if (!attribute) return undefined;
    if (attribute.type === 'relation')
      return attribute.target === undefined ? undefined : this.registry.schema(attribute.target);
    if (attribute.type === 'media') return this.registry.schema('plugin::upload.file');
    if (attribute.type === 'component') return this.registry.component(attribute.component);
    if (attribute.type === 'dynamiczone') return this.registry.component(this.rnd.pick(attribute.components));
    return undefined;
  }

  filters(schema: Schema, prefix: string[], depth: number): Param[] {
    const rnd = this.rnd;
    const out: Param[] = [];
    for (let i = rnd.int(1, 3); i > 0; i--) {
      const key = rnd.weighted<string>([
        [6, () => this.name(schema)],
        [2, () => rnd.pick([...LOGICAL_OPERATORS])],
        [this.clean ? 0 : 1, () => rnd.pick(OPERATORS)],
        [this.clean ? 0 : 1, () => rnd.pick(JUNK_KEYS)],
      ]);
      const at = [...prefix, key];
      if (key === '$or' || key === '$and') {
        if (depth > 5 || rnd.chance(0.1)) out.push([at, queryScalar(rnd)]);
        else
          for (let j = rnd.int(0, 2); j >= 0; j--)
            out.push(...this.filters(schema, [...at, rnd.chance(0.9) ? String(j) : 'x'], depth + 1));
        continue;
      }
      if (key === '$not') {
        out.push(...(depth > 5 ? [[at, queryScalar(rnd)] as Param] : this.filters(schema, at, depth + 1)));
        continue;
      }
      const target = this.targetOf(schema.attributes[key]);
      if (target && depth < 6 && rnd.chance(0.6)) {
        out.push(...this.filters(target, at, depth + 1));
        continue;
      }
      const attribute = schema.attributes[key];
      out.push(...(this.clean && attribute ? this.plausibleCondition(at, attribute) : this.condition(at)));
    }
    if (rnd.chance(0.02)) out.push([[...prefix, ...Array.from({ length: 30 }, () => '$and'), '0', 'id'], '1']);
    return out;
  }

  private condition(at: string[]): Param[] {
    const rnd = this.rnd;
    const op = rnd.chance(0.9) ? rnd.pick(Object.keys(VALUE_OPERATORS)) : rnd.pick([...JUNK_KEYS, '$foo', 'eq']);
    return rnd.weighted<Param[]>([
      [6, () => [[[...at, op], queryScalar(rnd)]]],
      [2, () => Array.from({ length: rnd.int(0, 4) }, (_, i): Param => [[...at, op, String(i)], queryScalar(rnd)])],
      [1, () => [[[...at, op, rnd.pick(JUNK_KEYS)], queryScalar(rnd)]]],
      [1, () => [[at, queryScalar(rnd)]]],
      [1, () => Array.from({ length: 150 }, (_, i): Param => [[...at, '$in', String(i)], String(i)])],
    ]);
  }

  private sortValue(schema: Schema): string {
    const rnd = this.rnd;
    if (this.clean) return `${this.name(schema)}${rnd.pick(['', ':asc', ':desc'])}`;
    return `${this.dottedPath(schema, rnd.int(1, 3))}${rnd.pick(['', ':asc', ':desc', ':DESC', ':sideways', ':', '$'])}`;
  }

  private sort(schema: Schema): Param[] {
    const rnd = this.rnd;
    return rnd.weighted<Param[]>([
      [3, () => [[['sort'], Array.from({ length: rnd.int(1, 3) }, () => this.sortValue(schema)).join(',')]]],
      [2, () => Array.from({ length: rnd.int(1, 3) }, (_, i): Param => [['sort', String(i)], this.sortValue(schema)])],
      [1, () => [[['sort', this.name(schema)], rnd.pick(['asc', 'desc', 'x', '1', '-1'])]]],
    ]);
  }

  private pagination(prefix: string[]): Param[] {
    const rnd = this.rnd;
    if (this.clean)
      return rnd.chance(0.5)
        ? [
            [[...prefix, 'page'], String(rnd.int(1, 4))],
            [[...prefix, 'pageSize'], String(rnd.pick([1, 5, 25, 100]))],
          ]
        : [
            [[...prefix, 'start'], String(rnd.int(0, 30))],
            [[...prefix, 'limit'], String(rnd.pick([-1, 1, 10, 100]))],
          ];
    return rnd
      .some(['page', 'pageSize', 'start', 'limit', 'withCount', 'x'], 3)
      .map((key): Param => [
        [...prefix, key],
        rnd.chance(0.6) ? String(rnd.pick([-1, 0, 1, 2, 5, 25, 100, 101, 1000, 100000, 2 ** 53])) : queryScalar(rnd),
      ]);
  }

  /** Percent-encoded `a[b][c]=v` pairs, with some malformed on purpose. */
  queryString(params: Param[]): string {
    const rnd = this.rnd;
    if (params.length === 0) return '';
    const pairs = params.map(([path, value]) => {
      const [head, ...rest] = path;
      const key = percentEncode(head ?? '') + rest.map((segment) => `[${percentEncode(segment)}]`).join('');
      return `${key}=${percentEncode(value)}`;
    });
    if (!this.clean && rnd.chance(0.05))
      pairs.push(
        rnd.pick(['%zz', 'a=%', 'filters[%zz]=1', '=', '&&', 'populate=%E0%A4%A', 'filters=abc', 'sort[]=', 'a[=1']),
      );
    return `?${pairs.join('&')}`;
  }

  /** A value of the attribute's type, as a client would send it. */
  private plausible(attribute: Attribute): unknown {
    const rnd = this.rnd;
    const word = () => rnd.pick(['alpha', 'Beta', 'café', 'x y', 'news', 'Paris', 'a%b_c', 'ÉTÉ', '😀']);
    switch (attribute.type) {
      case 'relation':
      case 'media':
        return rnd.chance(0.5) ? this.id() : { connect: [this.id()], disconnect: rnd.chance(0.3) ? [this.id()] : [] };
      case 'enumeration':
        return rnd.pick(attribute.enum ?? ['x']);
      case 'email':
        return `${word().replace(/[^a-z]/gi, '') || 'x'}${rnd.int(1, 1e6)}@example.com`;
      case 'uid':
        return `slug-${rnd.int(1, 1e9)}`;
      case 'integer':
        return rnd.int(0, 100);
      case 'biginteger':
        return String(rnd.int(0, 1e9));
      case 'float':
      case 'decimal':
        return rnd.int(0, 10000) / 100;
      case 'boolean':
        return rnd.chance(0.5);
      case 'date':
        return `20${rnd.int(10, 30)}-0${rnd.int(1, 9)}-1${rnd.int(0, 9)}`;
      case 'time':
        return `1${rnd.int(0, 9)}:${rnd.int(10, 59)}:00.000`;
      case 'datetime':
      case 'timestamp':
        return new Date(rnd.int(0, 2e12)).toISOString();
      case 'json':
        return jsonValue(rnd, 2);
      case 'password':
        return `Password${rnd.int(100, 999)}!`;
      default:
        return `${word()} ${rnd.int(1, 1000)}`;
    }
  }

  /** A condition with a known operator and a value of the attribute's type. */
  private plausibleCondition(at: string[], attribute: Attribute): Param[] {
    const rnd = this.rnd;
    const op = rnd.pick(Object.keys(VALUE_OPERATORS));
    const value = () => {
      if (rnd.chance(0.15)) return rnd.pick(NASTY_STRINGS); // the one odd value
      const v = this.plausible(attribute);
      return typeof v === 'object' ? String(this.id()) : String(v);
    };
    if (op === '$in' || op === '$notIn' || op === '$between')
      return Array.from({ length: op === '$between' ? 2 : rnd.int(1, 3) }, (_, i): Param => [
        [...at, op, String(i)],
        value(),
      ]);
    if (op === '$null' || op === '$notNull') return [[[...at, op], rnd.pick(['true', 'false'])]];
    return [[[...at, op], value()]];
  }

  private id(): number {
    return this.rnd.chance(0.9) ? this.rnd.int(1, 60) : this.rnd.int(61, 10000);
  }

  private junkId(): string {
    const rnd = this.rnd;
    return rnd.chance(0.7) ? String(rnd.int(1000, 9999)) : percentEncode(rnd.pick(NASTY_STRINGS)) || 'x';
  }
}

/** encodeURIComponent that also takes lone surrogates (sent as the UTF-8 of U+FFFD, as a browser would). */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.!~*'()]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function isSystem(name: string): boolean {
  return ['createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations'].includes(name);
}

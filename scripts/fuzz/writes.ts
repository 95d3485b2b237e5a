/**
 * Write sequences for the differential run (differential.ts): REST creates, updates and deletes on
 * every content-type of an app, its single types and i18n localizations, users-permissions' user
 * routes and auth, and GraphQL mutations, with bodies good and bad for every attribute type. A
 * step may capture the id its answer created (`capture`) and later steps name it as `{{ref}}`,
 * so that each server resolves the ids it assigned itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Random } from './random.js';

export interface WriteStep {
  method: string;
  path: string;
  body?: unknown;
  /** 'token' (full-access API token), a seeded user's name (logs in), or none (public) */
  auth?: string;
  /** where the id this step created is in its answer (dot path), and the ref it is stored as */
  capture?: { ref: string; at: string };
  kind: string;
}

interface AttributeJson {
  type: string;
  required?: boolean;
  enum?: string[];
  component?: string;
  components?: string[];
  repeatable?: boolean;
  relation?: string;
  target?: string;
  private?: boolean;
  unique?: boolean;
}
interface SchemaJson {
  kind?: string;
  info: { singularName: string; pluralName: string };
  options?: { draftAndPublish?: boolean };
  pluginOptions?: { i18n?: { localized?: boolean } };
  attributes: Record<string, AttributeJson>;
}

export interface AppSchemas {
  types: Map<string, SchemaJson>;
  components: Map<string, SchemaJson>;
}

export function readAppSchemas(appDir: string): AppSchemas {
  const types = new Map<string, SchemaJson>();
  for (const file of readdirSync(join(appDir, 'schemas/api'))) {
    const schema = JSON.parse(readFileSync(join(appDir, 'schemas/api', file), 'utf8')) as SchemaJson;
    types.set(`api::${schema.info.singularName}.${schema.info.singularName}`, schema);
  }
  const components = new Map<string, SchemaJson>();
  for (const category of readdirSync(join(appDir, 'schemas/components')))
    for (const file of readdirSync(join(appDir, 'schemas/components', category)))
      components.set(
        `${category}.${file.replace(/\.json$/, '')}`,
        JSON.parse(readFileSync(join(appDir, 'schemas/components', category, file), 'utf8')) as SchemaJson,
      );
  return { types, components };
}

const USERS = [
  { identifier: 'alice', password: 'Password123!' },
  { identifier: 'bob', password: 'Password123!' },
  { identifier: 'Carol_X', password: 'Secret%&*456' },
];

/** The conformance seed's id ranges per REST path (ids beyond them are unknown ones). */
const SEEDED_IDS: Record<string, number> = {
  articles: 48,
  authors: 8,
  'author-profiles': 8,
  categories: 6,
  tags: 12,
  events: 10,
  notes: 3,
  users: 3,
};

export class WriteGenerator {
  private refCount = 0;
  /** refs of entries created so far, per REST path */
  private readonly created = new Map<string, string[]>();

  constructor(
    private readonly rnd: Random,
    private readonly app: AppSchemas,
    private readonly runTag: string,
  ) {}

  step(): WriteStep {
    const rnd = this.rnd;
    return rnd.weighted<WriteStep>([
      [30, () => this.create()],
      [25, () => this.update()],
      [8, () => this.remove()],
      [6, () => this.singleType()],
      [6, () => this.localization()],
      [10, () => this.users()],
      [15, () => this.graphqlMutation()],
    ]);
  }

  private collections(): [string, SchemaJson][] {
    return [...this.app.types.entries()].filter(([, schema]) => schema.kind !== 'singleType');
  }

  private auth(): string | undefined {
    return this.rnd.weighted<string | undefined>([
      [7, () => 'token'],
      [3, () => 'alice'],
      [1, () => undefined],
    ]);
  }

  /** An id of the type: a seeded one, one this run created, or one that does not exist. */
  private id(plural: string): string {
    const rnd = this.rnd;
    const created = this.created.get(plural) ?? [];
    return rnd.weighted<string>([
      [5, () => String(rnd.int(1, SEEDED_IDS[plural] ?? 3))],
      [created.length > 0 ? 5 : 0, () => `{{${rnd.pick(created)}}}`],
      [1, () => rnd.pick(['0', '9999', 'abc', '1.5', '-1'])],
    ]);
  }

  private newRef(plural: string): string {
    const ref = `r${this.refCount++}`;
    const list = this.created.get(plural) ?? [];
    list.push(ref);
    this.created.set(plural, list);
    return ref;
  }

  private query(schema: SchemaJson): string {
    const rnd = this.rnd;
    const params: string[] = [];
    if (rnd.chance(0.25)) params.push(rnd.pick(['populate=*', 'populate[0]=author', 'populate=seo.metaSocial']));
    if (rnd.chance(0.15)) params.push(rnd.pick(['fields[0]=title', 'fields[0]=name', 'fields=nope']));
    if (schema.pluginOptions?.i18n?.localized && rnd.chance(0.3))
      params.push(`locale=${rnd.pick(['en', 'fr', 'de', 'all', ''])}`);
    return params.length > 0 ? `?${params.join('&')}` : '';
  }

  private create(): WriteStep {
    const [, schema] = this.rnd.pick(this.collections());
    const plural = schema.info.pluralName;
    const ref = this.newRef(plural);
    return {
      method: 'POST',
      path: `/api/${plural}${this.query(schema)}`,
      body: this.envelope(schema, true),
      auth: this.auth(),
      capture: { ref, at: 'data.id' },
      kind: `create ${plural}`,
    };
  }

  private update(): WriteStep {
    const [, schema] = this.rnd.pick(this.collections());
    const plural = schema.info.pluralName;
    return {
      method: 'PUT',
      path: `/api/${plural}/${this.id(plural)}${this.query(schema)}`,
      body: this.envelope(schema, false),
      auth: this.auth(),
      kind: `update ${plural}`,
    };
  }

  private remove(): WriteStep {
    const [, schema] = this.rnd.pick(this.collections());
    const plural = schema.info.pluralName;
    return {
      method: 'DELETE',
      path: `/api/${plural}/${this.id(plural)}${this.query(schema)}`,
      auth: this.auth(),
      kind: `delete ${plural}`,
    };
  }

  private singleType(): WriteStep {
    const single = [...this.app.types.values()].find((schema) => schema.kind === 'singleType');
    if (!single) return this.create();
    const method = this.rnd.chance(0.85) ? 'PUT' : 'DELETE';
    return {
      method,
      path: `/api/${single.info.singularName}${this.query(single)}`,
      body: method === 'PUT' ? this.envelope(single, this.rnd.chance(0.5)) : undefined,
      auth: this.auth(),
      kind: `${method === 'PUT' ? 'update' : 'delete'} ${single.info.singularName}`,
    };
  }

  private localization(): WriteStep {
    const rnd = this.rnd;
    const localized = this.collections().filter(([, schema]) => schema.pluginOptions?.i18n?.localized);
    if (localized.length === 0) return this.create();
    const [, schema] = rnd.pick(localized);
    const plural = schema.info.pluralName;
    const ref = this.newRef(plural);
    const data = this.data(schema, rnd.chance(0.7));
    if (rnd.chance(0.9)) data.locale = rnd.pick(['fr', 'fr', 'en', 'de', '', 5, null]);
    return {
      method: 'POST',
      path: `/api/${plural}/${this.id(plural)}/localizations`,
      body: rnd.chance(0.9) ? data : { data },
      auth: this.auth(),
      capture: { ref, at: 'id' },
      kind: `localization ${plural}`,
    };
  }

  /** users-permissions: register, login, and the user routes. */
  private users(): WriteStep {
    const rnd = this.rnd;
    const n = this.refCount++;
    const username = rnd.pick([`fz${this.runTag}u${n}`, 'alice', `Fz${this.runTag}U${n}`, '', 'ab', 5]);
    const email = rnd.pick([`fz${this.runTag}u${n}@example.com`, 'alice@example.com', 'bad', '', null]);
    // (a password over 72 bytes is refused here on purpose: docs/strapi-deviations.md)
    const password = rnd.pick(['Password123!', '123', '', 7, 'x'.repeat(60)]);
    const userData = (): Record<string, unknown> => {
      const data: Record<string, unknown> = {};
      if (rnd.chance(0.7)) data.username = username;
      if (rnd.chance(0.7)) data.email = email;
      if (rnd.chance(0.6)) data.password = password;
      if (rnd.chance(0.2)) data.role = rnd.pick([1, 2, 99, 'x']);
      if (rnd.chance(0.2)) data.confirmed = rnd.pick([true, false, 'x']);
      if (rnd.chance(0.2)) data.blocked = rnd.pick([true, false]);
      if (rnd.chance(0.1)) data[rnd.pick(['nope', 'provider', 'resetPasswordToken', 'id'])] = 'x';
      return data;
    };
    return rnd.weighted<WriteStep>([
      [
        4,
        () => ({
          method: 'POST',
          path: '/api/auth/local/register',
          body: userData(),
          capture: { ref: this.newRef('users'), at: 'user.id' },
          kind: 'register',
        }),
      ],
      [
        2,
        () => {
          const who = rnd.pick(USERS);
          return {
            method: 'POST',
            path: '/api/auth/local',
            body: rnd.chance(0.6)
              ? who
              : { identifier: rnd.pick([who.identifier, 'alice@example.com', 'ALICE', '', 5]), password: password },
            kind: 'login',
          };
        },
      ],
      [
        3,
        () => ({
          method: 'POST',
          path: '/api/users',
          body: userData(),
          auth: this.auth(),
          capture: { ref: this.newRef('users'), at: 'id' },
          kind: 'create users',
        }),
      ],
      [
        3,
        () => ({
          method: 'PUT',
          path: `/api/users/${this.userId()}`,
          body: userData(),
          auth: this.auth(),
          kind: 'update users',
        }),
      ],
      [1, () => ({ method: 'DELETE', path: `/api/users/${this.userId()}`, auth: this.auth(), kind: 'delete users' })],
    ]);
  }

  /** A user this run made (never a seeded one, which later logins need), or an unknown id. */
  private userId(): string {
    const created = this.created.get('users') ?? [];
    return created.length > 0 && this.rnd.chance(0.85) ? `{{${this.rnd.pick(created)}}}` : '9999';
  }

  private envelope(schema: SchemaJson, creating: boolean): unknown {
    const rnd = this.rnd;
    if (rnd.chance(0.04)) return rnd.pick([{}, { data: null }, { data: [] }, { data: 'x' }, [], { title: 'flat' }]);
    return { data: this.data(schema, creating) };
  }

  /** Attributes with right or wrong values; a create mostly has the required ones. */
  data(schema: SchemaJson, creating: boolean, depth = 0): Record<string, unknown> {
    const rnd = this.rnd;
    const out: Record<string, unknown> = {};
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      const wanted = attribute.required && creating ? rnd.chance(0.93) : rnd.chance(0.3);
      if (wanted) out[name] = this.value(attribute, name, depth);
    }
    if (rnd.chance(0.05)) out[rnd.pick(['nope', 'id', 'createdAt', 'updatedAt', 'createdBy', '__proto__x'])] = 'x';
    if (schema.options?.draftAndPublish && rnd.chance(0.3))
      out.publishedAt = rnd.pick([null, '2024-05-01T10:00:00.000Z', 'x', '2024-05-01', 5]);
    if (schema.pluginOptions?.i18n?.localized && rnd.chance(0.1)) out.locale = rnd.pick(['fr', 'en', 'de']);
    return out;
  }

  private value(attribute: AttributeJson, name: string, depth: number): unknown {
    const rnd = this.rnd;
    const good = rnd.chance(0.8);
    const n = this.refCount++;
    switch (attribute.type) {
      case 'string':
      case 'text':
      case 'richtext':
        return good
          ? rnd.pick([`${name} ${this.runTag}-${n}`, 'Alice', 'Technology', 'é ÉTÉ', ''])
          : rnd.pick([5, true, null, { a: 1 }, ['x'], 'x'.repeat(300)]);
      case 'uid':
        return good
          ? rnd.pick([`slug-${this.runTag}-${n}`, 'getting-started', 'a_b~c.d'])
          : rnd.pick(['Bad Slug!', '', null, 5, 'é']);
      case 'email':
        return good ? rnd.pick([`e${n}@example.com`, 'Alice@Example.COM']) : rnd.pick(['bad', '', null, 5, 'a@b']);
      case 'password':
        return good ? 'secret-123' : rnd.pick([5, '', null]);
      case 'enumeration':
        return good ? rnd.pick(attribute.enum ?? ['x']) : rnd.pick(['nope', '', null, 1, 'NEWS']);
      case 'date':
        return good
          ? rnd.pick(['2024-01-15', '2023-12-31'])
          : rnd.pick(['2024-13-45', 'x', '2024-01-15T10:00:00.000Z', 20240115, null, '', '2024-1-5']);
      case 'time':
        return good
          ? rnd.pick(['10:00', '10:00:00', '23:59:59.999'])
          : rnd.pick(['25:00', 'x', 1000, null, '', '10', '10:00:00Z']);
      case 'datetime':
        return good
          ? rnd.pick(['2024-01-15T10:00:00.000Z', '2024-01-15T10:00:00+02:00'])
          : rnd.pick(['2024-01-15', 'x', 0, 1700000000000, null, '', '2024-02-30T25:00:00Z']);
      case 'integer':
        return good ? rnd.pick([0, 5, -3, 1000]) : rnd.pick([1.5, '7', 'x', 2 ** 31, null, true, '', 1e21]);
      case 'biginteger':
        // no text but digits and nothing past 2^53: both are deliberate deviations (docs/strapi-deviations.md)
        return good ? rnd.pick(['9007199254740991', 42, '0', '-7']) : rnd.pick([1.5, null]);
      case 'float':
      case 'decimal':
        return good ? rnd.pick([1.5, 9.99, 0, -2]) : rnd.pick(['2.5', 'x', null, true, '', 1e308]);
      case 'boolean':
        return good ? rnd.chance(0.5) : rnd.pick(['true', 1, 0, 'x', null, 'false', 't']);
      case 'json':
        return rnd.pick([{ a: 1, b: [1, 2] }, [1, 'x'], 'text', 5, null, true, { nested: { deep: null } }]);
      case 'relation':
        return this.relation(attribute);
      case 'media':
        return rnd.pick([1, [1], null, 'x']);
      case 'component':
        return this.component(attribute, depth);
      case 'dynamiczone':
        return this.dynamicZone(attribute, depth);
      default:
        return rnd.pick(['x', 1, null]);
    }
  }

  private relation(attribute: AttributeJson): unknown {
    const rnd = this.rnd;
    const target = attribute.target ? this.app.types.get(attribute.target) : undefined;
    const plural = target?.info.pluralName ?? 'x';
    const toMany = attribute.relation === 'manyToMany' || attribute.relation === 'oneToMany';
    const ref = () => this.refValue(plural);
    // several ids for a to-one relation are refused here on purpose (docs/strapi-deviations.md)
    const some = () => Array.from({ length: rnd.int(0, toMany ? 3 : 1) }, ref);
    return rnd.weighted<unknown>([
      [3, () => (toMany ? some() : ref())],
      [2, () => ({ connect: some() })],
      [1, () => ({ disconnect: some() })],
      [1, () => ({ set: some() })],
      [1, () => ({ connect: some(), disconnect: some() })],
      [
        2,
        () => ({
          connect: Array.from({ length: rnd.int(1, toMany ? 3 : 1) }, () => ({
            id: ref(),
            position: rnd.pick<unknown>([
              { before: ref() },
              { after: ref() },
              { start: true },
              { end: true },
              { before: 9999 },
            ]),
          })),
        }),
      ],
      [1, () => rnd.pick<unknown>([null, [], 'x', { connect: 'x' }, { set: null }, [9999], { id: 1 }, [{ id: 2 }]])],
    ]);
  }

  /** An id as a relation input: a number (of a seeded or a created entry) or `{{ref}}`. */
  private refValue(plural: string): unknown {
    const id = this.id(plural);
    return /^\d+$/.test(id) ? Number(id) : id;
  }

  private component(attribute: AttributeJson, depth: number): unknown {
    const rnd = this.rnd;
    const schema = attribute.component ? this.app.components.get(attribute.component) : undefined;
    if (!schema || depth > 2) return null;
    const one = () => ({ ...this.data(schema, true, depth + 1), ...(rnd.chance(0.1) ? { id: rnd.int(1, 20) } : {}) });
    if (!rnd.chance(0.9)) return rnd.pick<unknown>([null, 'x', 5, attribute.repeatable ? {} : []]);
    return attribute.repeatable ? Array.from({ length: rnd.int(0, 3) }, one) : one();
  }

  private dynamicZone(attribute: AttributeJson, depth: number): unknown {
    const rnd = this.rnd;
    if (!rnd.chance(0.9)) return rnd.pick<unknown>([null, {}, 'x', [null], [{}]]);
    return Array.from({ length: rnd.int(0, 3) }, () => {
      const uid = rnd.chance(0.9) ? rnd.pick(attribute.components ?? []) : rnd.pick(['blocks.nope', 'shared.seo', '']);
      const schema = this.app.components.get(uid);
      return { __component: uid, ...(schema ? this.data(schema, true, depth + 1) : {}) };
    });
  }

  /** A GraphQL mutation (the runner sends `{ query, variables }` as a step body). */
  private graphqlMutation(): WriteStep {
    const rnd = this.rnd;
    const [, schema] = rnd.pick([...this.app.types.entries()]);
    const singular = schema.info.singularName;
    const typeName = pascal(singular);
    const plural = schema.info.pluralName;
    const selection = `data { id attributes { ${this.gqlSelection(schema)} } }`;
    const locale =
      schema.pluginOptions?.i18n?.localized && rnd.chance(0.3) ? `, locale: "${rnd.pick(['en', 'fr', 'de'])}"` : '';
    const single = schema.kind === 'singleType';
    const withData = (creating: boolean) => ({ data: this.data(schema, creating) });
    const mutation = rnd.weighted<GraphQLWrite>([
      [
        single ? 0 : 4,
        () => ({
          query: `mutation($data: ${typeName}Input!) { create${typeName}(data: $data${locale}) { ${selection} } }`,
          variables: withData(true),
          capture: { ref: this.newRef(plural), at: `data.create${typeName}.data.id` },
        }),
      ],
      [
        4,
        () =>
          single
            ? {
                query: `mutation($data: ${typeName}Input!) { update${typeName}(data: $data${locale}) { ${selection} } }`,
                variables: withData(false),
              }
            : {
                query: `mutation($id: ID!, $data: ${typeName}Input!) { update${typeName}(id: $id, data: $data${locale}) { ${selection} } }`,
                variables: { id: this.id(plural), ...withData(false) },
              },
      ],
      [
        1,
        () =>
          single
            ? { query: `mutation { delete${typeName}${locale ? `(${locale.slice(2)})` : ''} { ${selection} } }` }
            : {
                query: `mutation($id: ID!) { delete${typeName}(id: $id${locale}) { ${selection} } }`,
                variables: { id: this.id(plural) },
              },
      ],
      [
        schema.pluginOptions?.i18n?.localized ? 1 : 0,
        () => ({
          query: `mutation($id: ID, $data: ${typeName}Input!) { create${typeName}Localization(id: $id, data: $data, locale: "${rnd.pick(['fr', 'en', 'de'])}") { ${selection} } }`,
          variables: { id: this.id(plural), ...withData(true) },
          capture: { ref: this.newRef(plural), at: `data.create${typeName}Localization.data.id` },
        }),
      ],
      [1, () => this.gqlUser()],
    ]);
    return {
      method: 'POST',
      path: '/graphql',
      body: { query: mutation.query, variables: mutation.variables },
      auth: this.auth(),
      capture: mutation.capture,
      kind: `graphql ${/mutation[^{]*\{\s*(\w+)/.exec(mutation.query)?.[1] ?? '?'}`,
    };
  }

  private gqlUser(): GraphQLWrite {
    const rnd = this.rnd;
    const n = this.refCount++;
    const user = `data { id attributes { username email confirmed blocked role { data { id } } } }`;
    const input = {
      username: rnd.pick([`fz${this.runTag}g${n}`, 'alice', '', 'ab']),
      email: rnd.pick([`fz${this.runTag}g${n}@example.com`, 'bad', 'bob@example.com']),
      password: rnd.pick(['Password123!', '12', '']),
    };
    return rnd.weighted<GraphQLWrite>([
      [
        3,
        () => ({
          query: `mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { id username email confirmed blocked role { id name type } } } }`,
          variables: { input },
          capture: { ref: this.newRef('users'), at: 'data.register.user.id' },
        }),
      ],
      [
        2,
        () => ({
          query: `mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { id username email confirmed blocked role { id name type } } } }`,
          variables: {
            input: rnd.chance(0.6) ? rnd.pick(USERS) : { identifier: rnd.pick(['alice', 'nobody', '']), password: 'x' },
          },
        }),
      ],
      [
        2,
        () => ({
          query: `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${user} } }`,
          variables: { data: input },
          capture: { ref: this.newRef('users'), at: 'data.createUsersPermissionsUser.data.id' },
        }),
      ],
      [
        2,
        () => ({
          query: `mutation($id: ID!, $data: UsersPermissionsUserInput!) { updateUsersPermissionsUser(id: $id, data: $data) { ${user} } }`,
          variables: {
            id: this.userId(),
            data: rnd.chance(0.5) ? { username: input.username } : { email: input.email, blocked: rnd.chance(0.5) },
          },
        }),
      ],
      [
        1,
        () => ({
          query: `mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { ${user} } }`,
          variables: { id: this.userId() },
        }),
      ],
    ]);
  }

  /** Every attribute of a type in a GraphQL selection (relations by id, components in full). */
  private gqlSelection(schema: SchemaJson, depth = 0): string {
    const parts: string[] = [];
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (attribute.private || attribute.type === 'password') continue;
      if (attribute.type === 'relation' || attribute.type === 'media') parts.push(`${name} { data { id } }`);
      else if (attribute.type === 'component') {
        const component = attribute.component ? this.app.components.get(attribute.component) : undefined;
        if (component && depth < 2) parts.push(`${name} { id ${this.gqlSelection(component, depth + 1)} }`);
      } else if (attribute.type === 'dynamiczone') {
        const members = (attribute.components ?? []).map((uid) => {
          const component = this.app.components.get(uid);
          return `... on ${componentTypeName(uid)} { id ${component ? this.gqlSelection(component, depth + 1) : ''} }`;
        });
        parts.push(`${name} { __typename ${members.join(' ')} }`);
      } else parts.push(name);
    }
    if (depth === 0) {
      if (schema.options?.draftAndPublish) parts.push('publishedAt');
      if (schema.pluginOptions?.i18n?.localized) parts.push('locale localizations { data { id } }');
      parts.push('createdAt updatedAt');
    }
    return parts.join(' ');
  }
}

interface GraphQLWrite {
  query: string;
  variables?: unknown;
  capture?: WriteStep['capture'];
}

function pascal(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** Strapi's GraphQL name of a component (`blocks.rich-text` → `ComponentBlocksRichText`). */
function componentTypeName(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `Component${pascal(category)}${pascal(name)}`;
}

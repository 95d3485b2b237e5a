/**
 * GraphQL documents generated from the served schema (introspected): random selections on every
 * root field, arguments of the right or the wrong type (filters, pagination, sort, ids, data),
 * variables that do not match their declarations, aliases, fragments, and the bombs (aliases x
 * page sizes, nested lists, fragment fan-out).
 */
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Random } from './random.js';
import type { FuzzRequest } from './rest.js';
import { jsonValue, NASTY_NUMBERS, NASTY_STRINGS } from './values.js';

type Fields = Record<string, GraphQLField<unknown, unknown>>;

export class GraphQLGenerator {
  private aliasCount = 0;

  constructor(
    private readonly rnd: Random,
    private readonly schema: GraphQLSchema,
  ) {}

  query(): FuzzRequest {
    return this.operation('query', this.schema.getQueryType() ?? undefined, 'graphql-query');
  }

  mutation(): FuzzRequest {
    return this.operation('mutation', this.schema.getMutationType() ?? undefined, 'graphql-mutation');
  }

  private operation(keyword: string, root: GraphQLObjectType | undefined, kind: string): FuzzRequest {
    const rnd = this.rnd;
    if (!root) return this.request({ query: '{ __typename }' }, kind);
    if (rnd.chance(0.04)) return this.bomb(root);
    const fields = Object.values(root.getFields() as Fields);
    const variables: Record<string, unknown> = {};
    const declarations: string[] = [];
    const selections = Array.from({ length: rnd.int(1, 3) }, () => {
      const field = rnd.pick(fields);
      const alias = rnd.chance(0.3) ? `a${this.aliasCount++}: ` : '';
      return `${alias}${field.name}${this.args(field.args, variables, declarations)}${this.selection(getNamedType(field.type), 0)}`;
    });
    const header = declarations.length > 0 ? `${keyword} Fuzz(${declarations.join(', ')})` : keyword;
    const junkVariables = rnd.chance(0.1)
      ? { ...variables, [rnd.pick(Object.keys(variables).concat('x'))]: jsonValue(rnd, 2) }
      : variables;
    return {
      ...this.request({ query: `${header} { ${selections.join(' ')} }`, variables: junkVariables }, kind),
      rootFields: selections.length,
    };
  }

  private request(payload: Record<string, unknown>, kind: string): FuzzRequest {
    const rnd = this.rnd;
    if (rnd.chance(0.03)) {
      const body = rnd.pick([
        '{"query": 1}',
        '{"query": "{", "variables": 3}',
        '{"variables": {}}',
        '[]',
        '{"query":"{ __typename }","operationName":7}',
        'not json',
      ]);
      return { method: 'POST', path: '/graphql', body, contentType: 'application/json', kind: `${kind}-raw` };
    }
    if (rnd.chance(0.05)) {
      const search = new URLSearchParams({ query: String(payload.query) });
      return { method: 'GET', path: `/graphql?${search.toString()}`, kind: `${kind}-get` };
    }
    return { method: 'POST', path: '/graphql', body: JSON.stringify(payload), contentType: 'application/json', kind };
  }

  private args(args: readonly GraphQLArgument[], variables: Record<string, unknown>, declarations: string[]): string {
    const rnd = this.rnd;
    const parts: string[] = [];
    for (const arg of args) {
      if (!isNonNullType(arg.type) && !rnd.chance(0.5)) continue;
      if (rnd.chance(0.25)) {
        const name = `v${declarations.length}`;
        const declared = rnd.chance(0.9) ? String(arg.type) : rnd.pick(['Int', 'String!', '[ID]', 'JSON']);
        declarations.push(`$${name}: ${declared}`);
        variables[name] = rnd.chance(0.8) ? this.inputValue(arg.type, 0) : jsonValue(rnd, 2);
        parts.push(`${arg.name}: $${name}`);
      } else {
        parts.push(`${arg.name}: ${literal(rnd.chance(0.9) ? this.inputValue(arg.type, 0) : jsonValue(rnd, 1))}`);
      }
    }
    if (rnd.chance(0.03)) parts.push(`${rnd.pick(['x', 'where', 'limit'])}: 1`);
    return parts.length > 0 ? `(${parts.join(', ')})` : '';
  }

  /** A value for an input type, sometimes of another type. */
  private inputValue(type: GraphQLInputType, depth: number): unknown {
    const rnd = this.rnd;
    if (rnd.chance(0.05)) return jsonValue(rnd, 1);
    const inner = getNullableType(type);
    if (!isNonNullType(type) && rnd.chance(0.05)) return null;
    if (isListType(inner))
      return Array.from({ length: rnd.chance(0.03) ? 500 : rnd.int(0, 3) }, () =>
        this.inputValue(inner.ofType, depth + 1),
      );
    if (isEnumType(inner)) return new EnumValue(rnd.chance(0.9) ? rnd.pick(inner.getValues()).name : 'NOPE');
    if (isInputObjectType(inner)) {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const field of rnd.some(Object.values(inner.getFields()), 3))
        out[field.name] = this.inputValue(field.type, depth + 1);
      return out;
    }
    if (isScalarType(inner)) {
      switch (inner.name) {
        case 'Int':
          return rnd.chance(0.8)
            ? rnd.pick([-1, 0, 1, 2, 3, 10, 25, 100, 101, 1000, 2 ** 31 - 1])
            : rnd.pick(NASTY_NUMBERS);
        case 'Float':
          return rnd.pick(NASTY_NUMBERS);
        case 'Boolean':
          return rnd.chance(0.5);
        case 'ID':
          return rnd.chance(0.8) ? String(rnd.int(1, 60)) : rnd.pick(NASTY_STRINGS);
        case 'JSON':
          return jsonValue(rnd, 3);
        default:
          return rnd.chance(0.8) ? rnd.pick(NASTY_STRINGS) : rnd.pick(NASTY_NUMBERS);
      }
    }
    return null;
  }

  private selection(type: ReturnType<typeof getNamedType>, depth: number): string {
    const rnd = this.rnd;
    if (isUnionType(type)) {
      const members = rnd.some(type.getTypes(), 3);
      const parts = members.map((member) => `... on ${member.name} ${this.selection(member, depth + 1)}`);
      return ` { __typename ${parts.join(' ')} }`;
    }
    if (!isObjectType(type)) return '';
    const fields = Object.values(type.getFields() as Fields);
    if (fields.length === 0) return '';
    const leaf = fields.filter(
      (field) => !isObjectType(getNamedType(field.type)) && !isUnionType(getNamedType(field.type)),
    );
    const chosen = depth > rnd.int(3, 9) ? (leaf.length > 0 ? [rnd.pick(leaf)] : [fields[0]!]) : rnd.some(fields, 4);
    if (chosen.length === 0) chosen.push(leaf[0] ?? fields[0]!);
    const parts = chosen.map((field) => {
      const alias = rnd.chance(0.05) ? `a${this.aliasCount++}: ` : '';
      const args = field.args.length > 0 && rnd.chance(0.3) ? this.args(field.args, {}, []) : '';
      return `${alias}${field.name}${args.includes('$') ? '' : args}${this.selection(getNamedType(field.type), depth + 1)}`;
    });
    return ` { ${parts.join(' ')} }`;
  }

  /** Operations built to cost too much: they must be refused quickly. */
  private bomb(root: GraphQLObjectType): FuzzRequest {
    const rnd = this.rnd;
    const collections = Object.values(root.getFields() as Fields).filter((f) =>
      f.args.some((a) => a.name === 'pagination'),
    );
    const field = collections.length > 0 ? rnd.pick(collections).name : '__typename';
    const query = rnd.weighted<string>([
      [
        3,
        () =>
          `{ ${Array.from({ length: rnd.int(200, 1500) }, (_, i) => `a${i}: ${field}(pagination: { pageSize: 100 }) { data { id } }`).join(' ')} }`,
      ],
      [
        2,
        () => {
          const n = rnd.int(15, 40);
          let out = `query { ${field} { data { ...F0 } } } `;
          for (let i = 0; i < n; i++)
            out += `fragment F${i} on ${this.entityOf(root, field)} { ...F${i + 1} ...F${i + 1} } `;
          return `${out}fragment F${n} on ${this.entityOf(root, field)} { id }`;
        },
      ],
      [1, () => `{ ${Array.from({ length: 30000 }, (_, i) => `a${i}: __typename`).join(' ')} }`],
    ]);
    return {
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query }),
      contentType: 'application/json',
      kind: 'graphql-bomb',
    };
  }

  private entityOf(root: GraphQLObjectType, field: string): string {
    const collection = getNamedType(root.getFields()[field]?.type);
    const data = isObjectType(collection) ? collection.getFields().data : undefined;
    return data ? getNamedType(data.type).name : 'Query';
  }
}

/** An enum value (written bare, unlike a string). */
class EnumValue {
  constructor(readonly name: string) {}

  /** in `variables`, an enum value is a string */
  toJSON(): string {
    return this.name;
  }
}

/** A value as a GraphQL literal. */
function literal(value: unknown): string {
  if (value instanceof EnumValue) return value.name;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) =>
    /^[_A-Za-z][_0-9A-Za-z]*$/.test(key),
  );
  return `{ ${entries.map(([key, item]) => `${key}: ${literal(item)}`).join(', ')} }`;
}

/**
 * GraphQL names of enumeration values, as Strapi v4's GraphQL plugin gives them: each stored value
 * goes through `toRegressedEnumValue` (@sindresorhus/slugify 1.1 with `_` separators, case and
 * camel case kept, letters transliterated: `"Full Time"` → `Full_Time`, `"a/b"` → `a_b`,
 * `"Ünïcode"` → `Uenicode`, trailing spaces and dashes folded). Values are collected into one
 * object, so when two values get the same name the later one wins: the name stands for that value
 * and an entry holding the earlier one cannot be answered (GraphQL's "cannot represent value"
 * error, as in Strapi). REST keeps the stored values; GraphQL maps them both ways.
 */
// `slugify-v1` is @sindresorhus/slugify 1.1.0 under an npm alias: the exact version Strapi v4's
// @strapi/utils uses (the upload plugin uses the current major for file names)
import slugify from 'slugify-v1';
import type { Registry } from '../../content-types/index.js';
import { GRAPHQL_NAME } from './graphql-names.js';

/** Strapi's `toRegressedEnumValue`. */
export function regressedEnumValue(value: string): string {
  return slugify(value, { decamelize: false, lowercase: false, separator: '_' });
}

export interface EnumMembers {
  /** GraphQL name → stored value */
  members: Record<string, string>;
  /**
   * Values Strapi v4 cannot name (a leading digit, or nothing left after transliteration, which
   * stops Strapi's GraphQL schema from building): named `_<name>` or `_<position>` here instead.
   */
  renamed: Array<{ value: string; name: string }>;
}

export function enumMembers(values: readonly string[]): EnumMembers {
  const members: Record<string, string> = {};
  const renamed: EnumMembers['renamed'] = [];
  values.forEach((value, index) => {
    const regressed = regressedEnumValue(value);
    let name = regressed;
    if (!GRAPHQL_NAME.test(name)) {
      name = regressed === '' ? `_${index}` : `_${regressed}`;
      renamed.push({ value, name });
    }
    members[name] = value;
  });
  return { members, renamed };
}

/** One start-up line per enumeration whose values Strapi v4 could not name in GraphQL. */
export function enumNameWarnings(registry: Registry): string[] {
  const warnings: string[] = [];
  for (const schema of registry.all()) {
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (attribute.type !== 'enumeration' || !attribute.enum) continue;
      const { renamed } = enumMembers(attribute.enum);
      if (renamed.length === 0) continue;
      const list = renamed.map((r) => `${JSON.stringify(r.value)} → ${r.name}`).join(', ');
      warnings.push(
        `${schema.source} (attribute "${name}"): enumeration values without a GraphQL name in Strapi v4 are named ${list} in GraphQL (REST keeps the values)`,
      );
    }
  }
  return warnings;
}

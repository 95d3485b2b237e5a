import { isPrivate, type Component, type ContentType, type Registry } from '../../content-types/index.js';
import { ValidationError } from '../../errors/index.js';
import type { QueryAccess } from '../access.js';
import { TempFields, type PipelineStage } from '../filters/compile.js';
import { jsonTextExpression } from '../filters/json-text.js';
import { relationJoin } from '../filters/relation-join.js';
import { parseSort, type SortKey, type SortReading } from './parse.js';

export interface SortInput {
  registry: Registry;
  uid: string;
  /** the qs value of `sort` */
  sort: unknown;
  access: QueryAccess;
  /** how directions are read (parse.ts) */
  reading?: SortReading;
}

export interface CompiledSort {
  /** stages needed before `$sort` (a `$lookup` for `author.name`) */
  lookups: PipelineStage[];
  /** the `$sort` spec; always ends with `_id: 1` so pages are stable (ties in Strapi's storage order) */
  sort: Record<string, 1 | -1>;
  /** stages removing the temporary fields after `$sort` */
  cleanup: PipelineStage[];
}

/**
 * Strapi v4's `sort` as MongoDB stages. Fields of the entry and of its single components sort in
 * place; a field through a relation (`author.name`, any depth) is fetched by a `$lookup` first.
 * Through a to-many relation or a repeatable component the entry comes once per related entry or
 * component, at each one's value (and once, as NULL, without any), as Strapi's SQL join answers
 * it; the page counts those rows, the total does not. Strings sort in code-point order, nulls first ascending, last
 * descending, as Strapi's recorded answers; a `json` attribute sorts on its JSON text. Throws ValidationError on any bad key or direction.
 */
export function compileSort(input: SortInput): CompiledSort {
  const schema = input.registry.contentType(input.uid);
  if (!schema) throw new ValidationError(`Unknown content-type ${input.uid}`, {});
  const temps = new TempFields('__sort');
  const lookups: PipelineStage[] = [];
  const sort: Record<string, 1 | -1> = {};
  for (const key of parseSort(input.sort, input.reading)) {
    const field = sortField(input, schema, key, key.path, '', 0, temps, lookups);
    if (!Object.hasOwn(sort, field)) sort[field] = key.direction;
  }
  if (!Object.hasOwn(sort, '_id')) sort._id = 1;
  const cleanup =
    temps.names.length > 0 ? [{ $project: Object.fromEntries(temps.names.map((name) => [name, 0])) }] : [];
  return { lookups, sort, cleanup };
}

/** The storage path to sort on for `path` (relative to `schema` at `prefix`), pushing the lookups it needs. */
function sortField(
  input: SortInput,
  schema: ContentType | Component,
  key: SortKey,
  path: string[],
  prefix: string,
  /** how many repeatable components the path went through */
  arrayDepth: number,
  temps: TempFields,
  lookups: PipelineStage[],
): string {
  const [name = '', ...rest] = path;
  const throughArray = arrayDepth > 0;
  if (name === 'id') {
    if (rest.length > 0) throw invalidParameter(rest.join('.'));
    return componentRows(`${prefix}${schema.modelType === 'component' ? 'id' : '_id'}`, arrayDepth, temps, lookups);
  }
  const attribute = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : undefined;
  if (!attribute || (isPrivate(attribute) && !input.access.readsPrivate)) throw invalidParameter(name);
  switch (attribute.type) {
    case 'media':
    case 'dynamiczone':
      throw invalidParameter(name);
    case 'component': {
      const component = input.registry.component(attribute.component);
      if (!component || rest.length === 0) throw invalidParameter(stopName(key, name));
      return sortField(
        input,
        component,
        key,
        rest,
        `${prefix}${name}.`,
        arrayDepth + (attribute.repeatable === true ? 1 : 0),
        temps,
        lookups,
      );
    }
    case 'relation': {
      const relation = schema.relations[name];
      const target = relation ? input.registry.contentType(relation.target) : undefined;
      if (!relation || !target || !input.access.canRead(target.uid)) throw invalidParameter(name);
      if (rest.length === 0) throw invalidParameter(stopName(key, name));
      const innerTemps = new TempFields('__sort');
      const innerLookups: PipelineStage[] = [];
      const innerField = sortField(input, target, key, rest, '', 0, innerTemps, innerLookups);
      const join = relationJoin(relation, `${prefix}${name}`, throughArray);
      const temp = temps.create();
      lookups.push({
        $lookup: {
          from: target.collectionName,
          let: join.let,
          pipeline: [
            { $match: { $expr: join.expr } },
            ...innerLookups,
            { $project: { _id: 0, value: `$${innerField}` } },
          ],
          as: temp,
        },
      });
      const single = !relation.multiple && !throughArray;
      lookups.push({ $addFields: { [temp]: single ? { $arrayElemAt: [`$${temp}.value`, 0] } : `$${temp}.value` } });
      // Strapi sorts on a join: an entry comes once per related entry (once, as NULL, without any)
      if (!single) lookups.push({ $unwind: { path: `$${temp}`, preserveNullAndEmptyArrays: true } });
      return temp;
    }
    case 'json':
    case 'blocks': {
      if (rest.length > 0) throw invalidParameter(`${name}.${rest.join('.')}`);
      if (throughArray) return `${prefix}${name}`;
      // Strapi stores JSON as text and sorts on that text
      const temp = temps.create();
      lookups.push({ $addFields: { [temp]: jsonTextExpression(`$${prefix}${name}`) } });
      return temp;
    }
    default:
      if (rest.length > 0) throw invalidParameter(`${name}.${rest.join('.')}`);
      return componentRows(`${prefix}${name}`, arrayDepth, temps, lookups);
  }
}

/**
 * A field inside repeatable components, sorted as Strapi's join of the component rows answers it:
 * the entry comes once per component, at each one's value (once, as NULL, without any).
 */
function componentRows(field: string, arrayDepth: number, temps: TempFields, lookups: PipelineStage[]): string {
  if (arrayDepth === 0) return field;
  const temp = temps.create();
  lookups.push({ $addFields: { [temp]: `$${field}` } });
  for (let level = 0; level < arrayDepth; level++)
    lookups.push({ $unwind: { path: `$${temp}`, preserveNullAndEmptyArrays: true } });
  return temp;
}

/** A sort stopping at a relation or component: Strapi names the attribute, or in the object form the direction it read as an attribute. */
function stopName(key: SortKey, name: string): string {
  return key.written ?? name;
}

function invalidParameter(key: string): ValidationError {
  return new ValidationError(`Invalid parameter ${key}`, {});
}

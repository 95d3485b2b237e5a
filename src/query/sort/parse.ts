import { ValidationError } from '../../errors/index.js';
import { asList, isPlainObject } from '../qs-values.js';

/** One sort key as written: `author.name:desc` → `{ path: ['author', 'name'], direction: -1 }`. */
export interface SortKey {
  path: string[];
  direction: 1 | -1;
  /** the direction as written (`sort[author]=asc`, `author:asc`), which Strapi names when the path stops at a relation */
  written?: string;
}

export interface SortReading {
  /**
   * `ignored` where Strapi only validates the sort's keys and never applies it (findOne): any
   * direction is taken (`title:sideways`), and an item without a field (`:desc`) names nothing.
   */
  directions?: 'checked' | 'ignored';
}

/**
 * Reads every form of Strapi v4's `sort`: `title`, `title:desc`, `a:asc,b:desc`, `sort[0]=a&sort[1]=b:desc`,
 * and the object form `sort[title]=desc` / `sort[author][name]=asc`. Directions are case-insensitive;
 * anything else is a 400 (Strapi answers `title:sideways` with a 500;
 * docs/strapi-deviations.md).
 */
export function parseSort(sort: unknown, reading: SortReading = {}): SortKey[] {
  if (sort === undefined || sort === null || sort === '') return [];
  const list = asList(sort);
  if (list) {
    // Strapi reads a list only when all its items are strings or all are objects; any other list
    // is read as an object, whose first key (`0`) names no attribute
    const isObject = (item: unknown) => typeof item === 'object' && item !== null;
    if (!list.every((item) => typeof item === 'string') && !list.every(isObject))
      throw new ValidationError('Invalid parameter 0', {});
    return list.flatMap((item) => parseSortItem(item, reading));
  }
  return parseSortItem(sort, reading);
}

function parseSortItem(item: unknown, reading: SortReading): SortKey[] {
  if (typeof item === 'string') return item.split(',').flatMap((part) => parseSortString(part, reading));
  if (isPlainObject(item)) return parseSortObject(item, [], reading);
  throw new ValidationError('Invalid sort parameter: expected a string, an array or an object', {});
}

/**
 * One `field[:direction]` as Strapi reads it: the item is trimmed, an empty one sorts on nothing,
 * the field keeps inner spaces (`title :desc` names `title `), text after a second `:` is ignored.
 */
function parseSortString(text: string, reading: SortReading): SortKey[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const [field = '', direction] = trimmed.split(':');
  if (field === '' && reading.directions === 'ignored') return [];
  if (field === '') throw new ValidationError(`Invalid sort parameter ${text}`, {});
  const written = direction === undefined || direction === '' ? {} : { written: direction };
  return [{ path: splitPath(field), direction: parseDirection(direction ?? 'asc', field, reading), ...written }];
}

function parseSortObject(object: Record<string, unknown>, prefix: string[], reading: SortReading): SortKey[] {
  return Object.entries(object).flatMap(([key, value]) => {
    const path = [...prefix, ...splitPath(key)];
    if (typeof value === 'string')
      return [{ path, direction: parseDirection(value, path.join('.'), reading), written: value }];
    if (isPlainObject(value)) return parseSortObject(value, path, reading);
    throw new ValidationError(`Invalid sort parameter ${path.join('.')}`, {});
  });
}

function splitPath(field: string): string[] {
  const path = field.split('.');
  if (path.some((segment) => segment === '')) throw new ValidationError(`Invalid sort parameter ${field}`, {});
  return path;
}

function parseDirection(direction: string, field: string, reading: SortReading): 1 | -1 {
  const normalized = direction.trim().toLowerCase();
  if (normalized === 'asc') return 1;
  if (normalized === 'desc') return -1;
  if (reading.directions === 'ignored') return 1;
  throw new ValidationError(`Invalid sort direction "${direction}" for ${field}: expected asc or desc`, {});
}

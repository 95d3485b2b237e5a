/**
 * `populate` as Strapi's entity service hands it to the query engine, whose database lifecycles
 * see it (`event.params.populate`), and back. Strapi converts `'*'` to `true` and a string or a
 * list of names to an array of names split on commas (`'deep,3'` → `['deep', '3']`: what
 * strapi-plugin-populate-deep looks for). An object is left as the request gave it on the way in;
 * on the way back, what a hook wrote in the query engine's words (`select`, `where`, `orderBy` in
 * a nested populate) is read as the REST words `fields`, `filters`, `sort`, `start`.
 */
import { asList, isPlainObject } from './qs-values.js';

/** `populate` of a read as the query engine's lifecycles see it. */
export function populateForQuery(populate: unknown): unknown {
  if (populate === '*') return true;
  if (typeof populate === 'string') return populate.split(',').map((name) => name.trim());
  const list = asList(populate);
  if (list && list.every((item) => typeof item === 'string'))
    return [...new Set(list.flatMap((item) => item.split(',').map((name) => name.trim())))];
  return populate;
}

const FROM_QUERY_WORDS: Readonly<Record<string, string>> = {
  select: 'fields',
  where: 'filters',
  orderBy: 'sort',
  offset: 'start',
};

/** A nested populate request a hook may have written in the query engine's words, in REST's. */
function requestFromQuery(request: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    const word = FROM_QUERY_WORDS[key];
    if (word !== undefined && request[word] !== undefined) continue;
    if (key === 'select' && Array.isArray(value)) out.fields = value.filter((field) => field !== 'id');
    else if (word !== undefined) out[word] = value;
    else if (key === 'populate') out.populate = populateFromQuery(value);
    else if (key === 'on' && isPlainObject(value))
      out.on = Object.fromEntries(
        Object.entries(value).map(([uid, fragment]) => [
          uid,
          isPlainObject(fragment) ? requestFromQuery(fragment) : fragment,
        ]),
      );
    else out[key] = value;
  }
  return out;
}

/** `populate` as a before-hook left it, in the words the REST read parses. */
export function populateFromQuery(populate: unknown): unknown {
  if (!isPlainObject(populate)) return populate;
  // the query engine passes over what is nil (populate-deep leaves `undefined` for skipped creator fields)
  return Object.fromEntries(
    Object.entries(populate)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, isPlainObject(value) ? requestFromQuery(value) : value]),
  );
}

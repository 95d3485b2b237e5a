// Strapi 4.26 (on SQLite, as recorded) compares the id of a path like `/api/articles/:id` with an
// INTEGER column, so SQLite's numeric affinity reads the text first: surrounding whitespace is
// ignored and any decimal number literal whose value is a whole number names that id (`01`,
// `+1`, `1.0`, `1e1` is 10). Anything else (`abc`, `0x1`, `1.5`) names no entry.
const NUMBER_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The entry id a path segment names, or undefined (a 404). */
export function entryIdFromPath(raw: string): number | undefined {
  const text = raw.trim();
  if (!NUMBER_LITERAL.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

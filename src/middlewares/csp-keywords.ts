/**
 * Strapi v4 runs helmet 6, which takes a Content-Security-Policy keyword written without its
 * quotes (`unsafe-inline` for `'unsafe-inline'`) and sends it as written; browsers then read it
 * as a host name, so it allows nothing. helmet 8 refuses such a value, which would stop projects
 * that start on Strapi. Leaving the entry out sends the policy browsers enforce under Strapi.
 */

/** The entries helmet 8 refuses without quotes: CSP keywords and nonce/hash sources. */
const KEYWORDS = new Set([
  'none',
  'self',
  'strict-dynamic',
  'report-sample',
  'inline-speculation-rules',
  'unsafe-inline',
  'unsafe-eval',
  'unsafe-hashes',
  'wasm-unsafe-eval',
]);
const QUOTED_PREFIXES = ['nonce-', 'sha256-', 'sha384-', 'sha512-'];

function needsQuotes(value: string): boolean {
  return KEYWORDS.has(value) || QUOTED_PREFIXES.some((prefix) => value.startsWith(prefix));
}

export interface UnquotedKeyword {
  directive: string;
  value: string;
}

/**
 * The directives with every unquoted keyword left out, and what was left out. Other values
 * (null, functions, helmet's own markers) pass unchanged.
 */
export function withoutUnquotedKeywords(directives: Record<string, unknown>): {
  directives: Record<string, unknown>;
  dropped: UnquotedKeyword[];
} {
  const dropped: UnquotedKeyword[] = [];
  const out: Record<string, unknown> = {};
  for (const [directive, value] of Object.entries(directives)) {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list)) {
      out[directive] = value;
      continue;
    }
    out[directive] = list.filter((entry: unknown) => {
      if (typeof entry !== 'string' || !needsQuotes(entry)) return true;
      dropped.push({ directive, value: entry });
      return false;
    });
  }
  return { directives: out, dropped };
}

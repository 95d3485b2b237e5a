/**
 * An operation's `variables` and `extensions` sent as JSON text, read as Strapi v4's Apollo Server
 * 3 reads them (`runHttpQuery`): a GET query string always carries them so, and some clients
 * (graphql-request, hand-written `fetch`) send them so in a POST body too. Non-empty text is
 * parsed; text that is no JSON is Apollo's plain-text 400; empty text is no value.
 */
import type { ShapeError } from './request-shape.js';

export type JsonTextOutcome = { operation: Record<string, unknown> } | { error: ShapeError };

const INVALID: Readonly<Record<'variables' | 'extensions', string>> = {
  variables: 'Variables are invalid JSON.',
  extensions: 'Extensions are invalid JSON.',
};

export function parseJsonTextParams(operation: Record<string, unknown>): JsonTextOutcome {
  let parsed = operation;
  // Apollo reads `extensions` first, so its error wins when both are broken
  for (const key of ['extensions', 'variables'] as const) {
    const value = operation[key];
    if (typeof value !== 'string') continue;
    if (value === '') {
      const { [key]: _empty, ...rest } = parsed;
      parsed = rest;
      continue;
    }
    try {
      parsed = { ...parsed, [key]: JSON.parse(value) as unknown };
    } catch {
      return { error: { status: 400, contentType: 'text/plain; charset=utf-8', body: INVALID[key] } };
    }
  }
  return { operation: parsed };
}

/**
 * An operation's `variables` and `extensions`, read as Strapi v4's Apollo Server 3 reads them
 * (`runHttpQuery`, then graphql-js's `execute`): JSON text (a GET query string always carries them
 * so, and some clients, graphql-request or a hand-written `fetch`, send them so in a POST body) is
 * parsed, and text that is no JSON is Apollo's plain-text 400 for the whole request; an empty
 * `extensions` text is none. Variables that are then no object (an empty text, a number) fail
 * that operation with graphql-js's message; a list is read as no variables (it is object-like).
 */
import type { ShapeError } from './request-shape.js';

export type JsonTextOutcome =
  | { kind: 'operation'; operation: Record<string, unknown> }
  /** the whole request's answer */
  | { kind: 'request-error'; error: ShapeError }
  /** this operation's answer (400 alone, in its place in a batch) */
  | { kind: 'operation-error'; answer: { errors: [{ message: string; extensions: { code: string } }] } };

const INVALID: Readonly<Record<'variables' | 'extensions', string>> = {
  variables: 'Variables are invalid JSON.',
  extensions: 'Extensions are invalid JSON.',
};

const NOT_AN_OBJECT =
  'Variables must be provided as an Object where each property is a variable value. Perhaps look to see if an unparsed JSON string was provided.';

export function parseJsonTextParams(operation: Record<string, unknown>): JsonTextOutcome {
  const parsed: Record<string, unknown> = { ...operation };
  // Apollo reads `extensions` first, so its error wins when both are broken
  for (const key of ['extensions', 'variables'] as const) {
    const value = parsed[key];
    if (typeof value !== 'string' || value === '') continue;
    try {
      parsed[key] = JSON.parse(value) as unknown;
    } catch {
      return {
        kind: 'request-error',
        error: { status: 400, contentType: 'text/plain; charset=utf-8', body: INVALID[key] },
      };
    }
  }
  if (parsed.extensions === '') delete parsed.extensions;
  const { variables } = parsed;
  if (variables === undefined || variables === null) return { kind: 'operation', operation: parsed };
  if (typeof variables !== 'object')
    return {
      kind: 'operation-error',
      answer: { errors: [{ message: NOT_AN_OBJECT, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] },
    };
  if (Array.isArray(variables)) delete parsed.variables;
  return { kind: 'operation', operation: parsed };
}

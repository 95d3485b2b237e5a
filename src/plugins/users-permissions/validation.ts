import { ValidationError, type ValidationIssue } from '../../errors/index.js';
import { messages } from '../../write/index.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Body = Record<string, unknown>;

/**
 * The body as an object. No body, or one of a type the body parser does not read, is koa-body's
 * `{}`; a JSON array or a text body is yup's type error on the whole body, as Strapi's object
 * schemas answer it.
 */
export function bodyObject(body: unknown): Body {
  if (body === undefined) return {};
  if (Array.isArray(body) || typeof body !== 'object' || body === null)
    throw ValidationError.fromIssues([
      { path: [], message: messages.typeError(['this'], 'object', body, body), name: 'ValidationError' },
    ]);
  return body as Body;
}

type Rule =
  | { kind: 'required' }
  | { kind: 'email' }
  | { kind: 'min'; n: number }
  | { kind: 'maxBytes'; n: number }
  /** any type (checked elsewhere), not among the strings answered */
  | { kind: 'anyType' }
  /** yup's `oneOf([ref(field)], message)`: the value must equal another field's */
  | { kind: 'sameAs'; field: string; message: string };

export interface CheckOptions {
  /** a missing required field is an issue (false: partial updates) */
  required?: boolean;
  /** yup's `noUnknown()`: keys without rules are one issue on the whole body, reported last */
  noUnknown?: boolean;
  /** issues of fields checked elsewhere (a role's shape), reported after these */
  also?: ValidationIssue[];
}

/** yup-like checks with Strapi's messages ("x is a required field", "x must be at least 6 characters"). */
export function checkFields(
  body: Body,
  rules: Record<string, Rule[]>,
  { required = true, noUnknown = false, also = [] }: CheckOptions = {},
): Record<string, string> {
  const issues: ValidationIssue[] = [];
  const out: Record<string, string> = {};
  for (const [field, fieldRules] of Object.entries(rules)) {
    const value = body[field];
    const issue = (message: string) => issues.push({ path: [field], message, name: 'ValidationError' });
    const requiredAt = fieldRules.findIndex((r) => r.kind === 'required');
    // a yup string that is not nullable fails its type check on null before any test
    if (value === null && required && requiredAt >= 0) {
      issue(messages.typeError([field], 'string', value, value));
      continue;
    }
    if (value === undefined || value === null || value === '') {
      // yup runs every test in order: an empty text also fails a `min` declared before `required`
      if (value === '' && requiredAt > 0)
        for (const rule of fieldRules.slice(0, requiredAt))
          if (rule.kind === 'min' && rule.n > 0) issue(`${field} must be at least ${rule.n} characters`);
      if (required && requiredAt >= 0) issue(`${field} is a required field`);
      continue;
    }
    if (fieldRules.some((r) => r.kind === 'anyType')) continue;
    if (typeof value !== 'string') {
      issue(messages.typeError([field], 'string', value, value));
      continue;
    }
    const failed = fieldRules.find(
      (r) =>
        (r.kind === 'email' && !EMAIL.test(value)) ||
        (r.kind === 'min' && value.length < r.n) ||
        (r.kind === 'maxBytes' && Buffer.byteLength(value, 'utf8') > r.n) ||
        (r.kind === 'sameAs' && value !== body[r.field]),
    );
    if (failed?.kind === 'email') issue(`${field} must be a valid email`);
    else if (failed?.kind === 'min') issue(`${field} must be at least ${failed.n} characters`);
    else if (failed?.kind === 'maxBytes') issue(`${field} must be less than ${failed.n} bytes`);
    else if (failed?.kind === 'sameAs') issue(failed.message);
    else out[field] = value;
  }
  const unknown = noUnknown ? Object.keys(body).filter((key) => !Object.hasOwn(rules, key)) : [];
  if (unknown.length > 0)
    issues.push({
      path: [],
      message: `this field has unspecified keys: ${unknown.join(', ')}`,
      name: 'ValidationError',
    });
  issues.push(...also);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return out;
}

export const USER_FIELD_RULES: Record<string, Rule[]> = {
  email: [{ kind: 'required' }, { kind: 'email' }, { kind: 'min', n: 6 }],
  username: [{ kind: 'required' }, { kind: 'min', n: 3 }],
  password: [{ kind: 'required' }, { kind: 'min', n: 6 }, { kind: 'maxBytes', n: 72 }],
};

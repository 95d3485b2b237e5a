/**
 * The body of `POST /admin/webhooks` and `PUT /admin/webhooks/:id`, checked as Strapi's admin
 * validator checks it (yup's messages, every problem at once, unknown keys refused), with two
 * checks Strapi lacks: the url must be http(s), and each header a valid name with a non-empty
 * string value (Strapi's header rule validates nothing; a bad header would fail every call).
 */
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { isPlainObject, issue, messages } from '../write/index.js';

export interface WebhookInput {
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
}

export type WebhookUpdateInput = WebhookInput & { isEnabled?: boolean };

const CREATE_KEYS = ['name', 'url', 'headers', 'events'];
const UPDATE_KEYS = [...CREATE_KEYS, 'isEnabled'];
// RFC 9110 token characters
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function checkWebhookCreate(body: unknown): WebhookInput {
  const { isEnabled: _isEnabled, ...input } = checkBody(body, CREATE_KEYS);
  return input;
}

export function checkWebhookUpdate(body: unknown): WebhookUpdateInput {
  return checkBody(body, UPDATE_KEYS);
}

/** A webhook's url: http or https, a host, nothing a request line cannot carry. */
export function isWebhookUrl(url: string): boolean {
  if (/\s/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

function checkBody(body: unknown, keys: string[]): WebhookUpdateInput {
  const input = body === undefined || body === null ? {} : body;
  if (!isPlainObject(input)) throw ValidationError.forPath([], messages.typeError(['this'], 'object', input, input));
  const issues: ValidationIssue[] = [
    ...checkName(input.name),
    ...checkUrl(input.url),
    ...checkHeaders(input.headers),
    ...checkEvents(input.events),
  ];
  if (keys.includes('isEnabled') && input.isEnabled !== undefined && typeof input.isEnabled !== 'boolean')
    issues.push(typeIssue(['isEnabled'], 'boolean', input.isEnabled));
  const unknown = Object.keys(input).filter((key) => !keys.includes(key));
  if (unknown.length > 0) issues.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  // checked above: the types hold
  return {
    name: input.name as string,
    url: input.url as string,
    headers: input.headers as Record<string, string>,
    events: input.events as string[],
    ...(typeof input.isEnabled === 'boolean' ? { isEnabled: input.isEnabled } : {}),
  };
}

function typeIssue(path: string[], type: string, value: unknown): ValidationIssue {
  return issue(path, messages.typeError(path, type, value, value));
}

function checkName(name: unknown): ValidationIssue[] {
  if (name === undefined || name === '') return [issue(['name'], messages.required(['name']))];
  return typeof name === 'string' ? [] : [typeIssue(['name'], 'string', name)];
}

function checkUrl(url: unknown): ValidationIssue[] {
  if (url === undefined) return [issue(['url'], messages.required(['url']))];
  if (typeof url !== 'string') return [typeIssue(['url'], 'string', url)];
  const invalid = isWebhookUrl(url) ? [] : [issue(['url'], 'url must be a valid URL')];
  // yup reports both for an empty string, the pattern first
  return url === '' ? [...invalid, issue(['url'], messages.required(['url']))] : invalid;
}

function checkHeaders(headers: unknown): ValidationIssue[] {
  if (headers === undefined) return [issue(['headers'], messages.required(['headers']))];
  if (!isPlainObject(headers)) return [typeIssue(['headers'], 'object', headers)];
  return Object.entries(headers).flatMap(([name, value]): ValidationIssue[] => {
    const path = ['headers', name];
    if (!HEADER_NAME.test(name)) return [issue(path, `headers.${name} is not a valid header name`)];
    if (value === undefined || value === null || value === '') return [issue(path, messages.required(path))];
    if (typeof value !== 'string') return [typeIssue(path, 'string', value)];
    return /[\r\n\0]/.test(value) ? [issue(path, `headers.${name} is not a valid header value`)] : [];
  });
}

function checkEvents(events: unknown): ValidationIssue[] {
  if (events === undefined) return [issue(['events'], messages.required(['events']))];
  if (!Array.isArray(events)) return [typeIssue(['events'], 'array', events)];
  return events.flatMap((event, i) =>
    typeof event === 'string' ? [] : [typeIssue(['events', String(i)], 'string', event)],
  );
}

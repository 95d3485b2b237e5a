import { BSONRegExp } from 'bson';
import { isPlainObject } from '../bson/types.js';
import { CommandError } from '../errors.js';

/**
 * Builds a JS RegExp from MongoDB (PCRE) pattern and options. Supports i, m, s, u and x (extended:
 * whitespace and #-comments outside character classes are dropped), which mingo would reject.
 */
export function toRegExp(pattern: string, options: string): RegExp {
  let flags = '';
  let extended = false;
  for (const ch of options) {
    if (ch === 'x') extended = true;
    else if ('imsu'.includes(ch)) {
      if (!flags.includes(ch)) flags += ch;
    } else throw new CommandError(51108, 'Location51108', `invalid flag in regex options: ${ch}`);
  }
  const source = extended ? stripExtended(pattern) : pattern;
  try {
    return new RegExp(source, flags);
  } catch {
    return new RegExp(source, `${flags}u`.replace(/u(?=.*u)/, ''));
  }
}

function stripExtended(p: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\' && i + 1 < p.length) {
      out += ch + p[i + 1];
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      continue;
    }
    if (ch === '#') {
      while (i < p.length && p[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(ch)) continue;
    out += ch;
  }
  return out;
}

/**
 * A copy of a filter or pipeline where BSON regexes become RegExp and `{ $regex, $options }`
 * pairs are compiled once, so mingo only ever sees JS RegExp objects.
 */
export function normalizeRegexes<T>(v: T): T {
  if (v instanceof BSONRegExp) return toRegExp(v.pattern, v.options) as T;
  if (Array.isArray(v)) return v.map(normalizeRegexes) as T;
  if (!isPlainObject(v)) return v;
  const obj = v as Record<string, unknown>;
  if ('$regex' in obj) {
    const re = obj.$regex;
    const opts = typeof obj.$options === 'string' ? obj.$options : '';
    let compiled: RegExp | undefined;
    if (typeof re === 'string') compiled = toRegExp(re, opts);
    else if (re instanceof BSONRegExp) compiled = toRegExp(re.pattern, opts || re.options);
    else if (re instanceof RegExp) compiled = opts ? toRegExp(re.source, opts) : re;
    if (compiled) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(obj))
        if (k !== '$options') out[k] = k === '$regex' ? compiled : normalizeRegexes(obj[k]);
      return out as T;
    }
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) out[k] = normalizeRegexes(obj[k]);
  return out as T;
}

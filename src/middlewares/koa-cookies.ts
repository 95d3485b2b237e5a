/**
 * Koa's `ctx.cookies` over Express: the `cookies` package's behaviour with Koa's app keys.
 * A signed cookie `name=value` travels with `name.sig`, a keygrip signature of `name=value`
 * (HMAC-SHA1 under the first key, base64url without padding). Reading accepts a signature of any
 * key, re-signs with the first key when an older one matched (key rotation), and drops a bad one.
 * With keys configured, cookies are signed unless `signed: false` is given, as Koa's are.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

export interface CookieOptions {
  maxAge?: number;
  expires?: Date;
  path?: string;
  domain?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: boolean | 'lax' | 'strict' | 'none';
  signed?: boolean;
}

export interface KoaCookies {
  get(name: string, options?: { signed?: boolean }): string | undefined;
  set(name: string, value: string | null, options?: CookieOptions): void;
}

/** keygrip's signature of `data` under `key`. */
function sign(data: string, key: string): string {
  return createHmac('sha1', key)
    .update(data)
    .digest('base64')
    .replace(/\//g, '_')
    .replace(/\+/g, '-')
    .replace(/=+$/, '');
}

/** The index of the key that made `signature`, or -1. */
function keyIndex(data: string, signature: string, keys: readonly string[]): number {
  const given = Buffer.from(signature);
  return keys.findIndex((key) => {
    const expected = Buffer.from(sign(data, key));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** The cookies of the request (`Cookie` header); values are URI-decoded as Koa's `cookies` does. */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

function keysRequired(): Error {
  return new Error('.keys required for signed cookies: set app.keys in config/server');
}

/** `ctx.cookies` of a request; `keys()` are the app's keys when the call is made. */
export function koaCookies(req: Request, res: Response, keys: () => readonly string[]): KoaCookies {
  const write = (name: string, value: string | null, options: CookieOptions) => {
    if (res.headersSent) return;
    const { signed: _signed, ...settings } = { httpOnly: true, path: '/', ...options };
    if (value === null) res.clearCookie(name, settings);
    else res.cookie(name, value, settings);
  };
  const cookies: KoaCookies = {
    get(name, options = {}) {
      const value = readCookie(req.headers.cookie, name);
      const known = keys();
      const signed = options.signed ?? known.length > 0;
      if (!signed || value === undefined) return value;
      if (known.length === 0) throw keysRequired();
      const sigName = `${name}.sig`;
      const signature = readCookie(req.headers.cookie, sigName);
      if (signature === undefined) return undefined;
      const data = `${name}=${value}`;
      const index = keyIndex(data, signature, known);
      if (index < 0) {
        write(sigName, null, { path: '/' });
        return undefined;
      }
      if (index > 0) write(sigName, sign(data, known[0] ?? ''), {});
      return value;
    },
    set(name, value, options = {}) {
      const known = keys();
      const signed = options.signed ?? known.length > 0;
      write(name, value, options);
      if (!signed) return;
      if (known.length === 0) throw keysRequired();
      write(`${name}.sig`, value === null ? null : sign(`${name}=${value}`, known[0] ?? ''), options);
    },
  };
  return cookies;
}

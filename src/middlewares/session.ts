/**
 * `strapi::session`: koa-session with its cookie store, as Strapi 4.26 configures it (`key`
 * `koa.sess`, a day's `maxAge`, signed, httpOnly, `secure` in production; the app's `config`
 * over these). `ctx.session` is read from the cookie when the app first touches it; a session the
 * request changed is written back (or cleared, once emptied or set to null) before the answer's
 * headers. Content API callers
 * send a JWT or an API token; projects keep their own values here (an OAuth redirect, a cart).
 */
import type { RequestHandler, Response } from 'express';
import { createKoaContext } from './koa-context.js';
import type { CookieOptions } from './koa-cookies.js';
import { offerSession, type SessionData, type SessionHandle, type SessionOpener } from './session-store.js';
import type { MiddlewareFactory } from './types.js';

interface SessionSettings {
  key: string;
  /** milliseconds, or `session` for a cookie that ends with the browser */
  maxAge: number | 'session';
  cookie: CookieOptions;
}

const SAME_SITE = new Set(['lax', 'strict', 'none']);

function settingsOf(config: Record<string, unknown>): SessionSettings {
  const sameSite = typeof config.sameSite === 'string' ? config.sameSite.toLowerCase() : config.sameSite;
  return {
    key: typeof config.key === 'string' && config.key !== '' ? config.key : 'koa.sess',
    maxAge: config.maxAge === 'session' ? 'session' : typeof config.maxAge === 'number' ? config.maxAge : 86400000,
    cookie: {
      httpOnly: config.httpOnly !== false,
      signed: config.signed !== false,
      secure: typeof config.secure === 'boolean' ? config.secure : process.env.NODE_ENV === 'production',
      ...(typeof config.path === 'string' ? { path: config.path } : {}),
      ...(typeof config.domain === 'string' ? { domain: config.domain } : {}),
      ...(sameSite === true || (typeof sameSite === 'string' && SAME_SITE.has(sameSite))
        ? { sameSite: sameSite as CookieOptions['sameSite'] }
        : {}),
    },
  };
}

/** koa-session's cookie value: the session's JSON with its expiry, in base64. */
function encode(data: SessionData, settings: SessionSettings): string {
  const stamped =
    settings.maxAge === 'session' ? data : { ...data, _expire: Date.now() + settings.maxAge, _maxAge: settings.maxAge };
  return Buffer.from(JSON.stringify(stamped)).toString('base64');
}

/** The session a cookie holds; a cookie that does not decode, or has expired, holds none. */
function decode(value: string | undefined): SessionData {
  if (value === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const { _expire, _maxAge: _ignored, ...data } = parsed as SessionData;
    if (typeof _expire === 'number' && _expire < Date.now()) return {};
    return data;
  } catch {
    return {};
  }
}

/** Runs `commit` once, just before the answer's headers are written. */
function beforeHeaders(res: Response, commit: () => void): void {
  const writeHead = res.writeHead;
  let done = false;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!done) {
      done = true;
      commit();
    }
    return Reflect.apply(writeHead, this, args) as Response;
  } as Response['writeHead'];
}

export const session: MiddlewareFactory = (config, { logger }) => {
  const settings = settingsOf(config);
  const cookieOptions: CookieOptions =
    settings.maxAge === 'session' ? settings.cookie : { ...settings.cookie, maxAge: settings.maxAge };
  let warned = false;
  const open: SessionOpener = (req, res) => {
    const { cookies, app } = createKoaContext(req, res, { body: undefined, explicitStatus: false });
    const signedWithoutKeys = settings.cookie.signed !== false && app.keys.length === 0;
    const raw = signedWithoutKeys ? undefined : cookies.get(settings.key, { signed: settings.cookie.signed });
    const handle: SessionHandle = { data: decode(raw) };
    const before = JSON.stringify(handle.data);
    beforeHeaders(res, () => {
      const now = handle.data;
      const ended = now === null || Object.keys(now).length === 0;
      if (ended ? raw === undefined : JSON.stringify(now) === before) return;
      if (signedWithoutKeys) {
        if (!warned) logger.warn('strapi::session: the session is not kept: set app.keys in config/server to sign it');
        warned = true;
        return;
      }
      cookies.set(settings.key, ended ? null : encode(now, settings), cookieOptions);
    });
    return handle;
  };
  const handler: RequestHandler = (req, _res, next) => {
    offerSession(req, open);
    next();
  };
  return { handlers: [handler] };
};

import qs from 'qs';
import type { MiddlewareFactory } from './types.js';

/** qs limits of the query string parser; `config` of `strapi::query` overrides them. */
const DEFAULTS: qs.IParseOptions = {
  depth: 20,
  arrayLimit: 100,
  parameterLimit: 1000,
  strictDepth: false,
  strictNullHandling: true,
};

/** `strapi::query`: `req.query` parsed by qs (nested `filters[...]`, `populate[...]`), as Strapi's koa app does. */
export const query: MiddlewareFactory = (config, { app }) => {
  const options: qs.IParseOptions = { ...DEFAULTS, ...(config as qs.IParseOptions) };
  app.set('query parser', (str: string) => qs.parse(str, options));
  return {};
};

import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import defaultsDeep from 'lodash/defaultsDeep.js';
import mergeWith from 'lodash/mergeWith.js';
import { withoutUnquotedKeywords } from './csp-keywords.js';
import type { MiddlewareContext, MiddlewareFactory } from './types.js';

/** Strapi v4's helmet settings; the app's `config` wins key by key (Strapi's defaultsDeep). */
const STRAPI_DEFAULTS = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      upgradeInsecureRequests: null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
};

/** What Strapi adds to the policy for GET requests on the GraphQL endpoint (its playground). */
const GRAPHQL_PAGE = {
  contentSecurityPolicy: {
    directives: {
      'script-src': ["'self'", "'unsafe-inline'", 'cdn.jsdelivr.net'],
      'img-src': ["'self'", 'data:', 'cdn.jsdelivr.net', 'strapi.io'],
    },
  },
};

function concatArrays(target: unknown, source: unknown): unknown[] | undefined {
  return Array.isArray(target) && Array.isArray(source)
    ? [...(target as unknown[]), ...(source as unknown[])]
    : undefined;
}

function options(settings: Record<string, unknown>): HelmetOptions {
  const { hidePoweredBy: _ignored, ...rest } = settings;
  // X-Powered-By belongs to strapi::poweredBy, wherever the two stand in the list
  return { ...rest, xPoweredBy: false } as HelmetOptions;
}

/** `strapi::security`: helmet with Strapi's defaults; GET on the GraphQL endpoint may run the playground's scripts. */
/** The settings with unquoted CSP keywords left out (as browsers ignore them under Strapi), each named in a warning. */
function lenientPolicy(
  settings: Record<string, unknown>,
  { logger, config }: MiddlewareContext,
): Record<string, unknown> {
  const policy = settings.contentSecurityPolicy;
  if (!isObject(policy) || !isObject(policy.directives)) return settings;
  const { directives, dropped } = withoutUnquotedKeywords(policy.directives);
  for (const { directive, value } of dropped)
    logger.warn(
      `${config.middlewares.file}: strapi::security contentSecurityPolicy "${directive}" has ${JSON.stringify(value)} without quotes, which browsers read as a host name (it allows nothing, as under Strapi); left out. Write "'${value}'" if the keyword is meant`,
    );
  return { ...settings, contentSecurityPolicy: { ...policy, directives } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const security: MiddlewareFactory = (config, context) => {
  const { graphqlEndpoint } = context;
  const settings = lenientPolicy(defaultsDeep({}, config, STRAPI_DEFAULTS) as Record<string, unknown>, context);
  const standard = helmet(options(settings));
  const graphqlPage = helmet(options(mergeWith({}, settings, GRAPHQL_PAGE, concatArrays) as Record<string, unknown>));
  const handler: RequestHandler = (req, res, next) => {
    const page = graphqlEndpoint !== null && req.method === 'GET' && req.path.startsWith(graphqlEndpoint);
    (page ? graphqlPage : standard)(req, res, next);
  };
  return { handlers: [handler] };
};

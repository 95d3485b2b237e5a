import type { RequestHandler } from 'express';
import express from 'express';
import { notePublicRoute } from '../rest/error-middleware.js';
import { indexPage } from './index-page.js';
import type { MiddlewareFactory } from './types.js';

/**
 * `strapi::public`: GET requests no route answered are served from the app's `public/` directory
 * (`server.dirs.public`; cached `maxAge` ms, one minute; `/uploads/…` left to the upload plugin),
 * and `/` gets an index page; another method on a path no route has is 405. As in Strapi v4,
 * `defaultIndex: false` turns all of it off.
 */
export const publicFiles: MiddlewareFactory = (config, { config: service, graphqlEndpoint }) => {
  if (config.defaultIndex === false) return {};
  const maxAge = typeof config.maxAge === 'number' ? config.maxAge : 60_000;
  const serve = express.static(service.server.publicDir, { maxAge, redirect: false, dotfiles: 'ignore' });
  const files: RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/uploads/')) {
      next();
      return;
    }
    serve(req, res, next);
  };
  // Strapi serves these files from a `GET /(.*)` route, which has every path
  const getOnly: RequestHandler = (req, _res, next) => {
    notePublicRoute(req);
    next();
  };
  return { fallback: [files, indexPage(service, graphqlEndpoint), getOnly] };
};

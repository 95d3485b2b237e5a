import type { RequestHandler } from 'express';
import type { ServiceConfig } from '../config/index.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page `strapi::public` answers at `/` and `/index.html` when the app's `public/` has none. */
export function indexPage(config: ServiceConfig, graphqlEndpoint: string | null): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (req.path !== '/' && req.path !== '/index.html') {
      next();
      return;
    }
    const links = [`<li>REST: <code>${escapeHtml(config.api.rest.prefix)}/&lt;plural&gt;</code></li>`];
    if (graphqlEndpoint)
      links.push(`<li>GraphQL: <a href="${escapeHtml(graphqlEndpoint)}">${escapeHtml(graphqlEndpoint)}</a></li>`);
    res
      .type('html')
      .send(
        [
          '<!doctype html>',
          '<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">',
          '<title>Content Service</title></head><body>',
          '<h1>Content Service is running</h1>',
          `<p>Environment: ${escapeHtml(config.env)}. Server time: ${escapeHtml(new Date().toUTCString())}.</p>`,
          `<ul>${links.join('')}</ul>`,
          '</body></html>',
        ].join('\n'),
      );
  };
}

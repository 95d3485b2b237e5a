/**
 * The GraphQL Playground, served when `playgroundAlways` is set or outside production, for GET
 * requests that accept HTML (a browser); other GETs go on to the endpoint.
 */
import type { RequestHandler } from 'express';

export function playground(endpoint: string): RequestHandler {
  return (req, res, next) => {
    if (typeof req.query.query === 'string' || !req.accepts(['application/json', 'text/html']) || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    res.type('html').send(page(endpoint));
  };
}

function page(endpoint: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>GraphQL Playground</title></head>
<body><p>GraphQL endpoint: <code>${endpoint.replace(/[<>&"]/g, '')}</code></p></body></html>`;
}

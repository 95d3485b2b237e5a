import type { RequestHandler, Router } from 'express';

/**
 * `router` entered only by requests whose path begins with a segment one of its routes begins
 * with: Express matches a request against every route of a router in turn (a regular expression
 * each), and the plugins' 34 routes under `/api` were a tenth of the HTTP thread's time on a
 * content-type read that none of them serves. The segments are read from the router's routes at
 * the first request (every plugin has registered by then); a route that does not begin with a
 * fixed segment, or a middleware of the router's own, makes every request enter it, as before.
 * Matching is Express's default: case-insensitive, on the path as sent.
 */
export function segmentGate(router: Router): RequestHandler {
  let segments: Set<string> | null | undefined;
  return (req, res, next) => {
    if (segments === undefined) segments = firstSegments(router);
    if (segments && !segments.has(firstSegment(req.path))) {
      next();
      return;
    }
    router(req, res, next);
  };
}

/** The first segment of every route's path, lower-cased; null when one has none fixed. */
function firstSegments(router: Router): Set<string> | null {
  const out = new Set<string>();
  for (const layer of router.stack as Array<{ route?: { path?: unknown } }>) {
    const path = layer.route?.path;
    if (typeof path !== 'string') return null;
    const segment = firstSegment(path);
    if (segment === '' || /[:*?(){}[\]+!]/.test(segment)) return null;
    out.add(segment);
  }
  return out;
}

function firstSegment(path: string): string {
  const start = path.startsWith('/') ? 1 : 0;
  const end = path.indexOf('/', start);
  return (end < 0 ? path.slice(start) : path.slice(start, end)).toLowerCase();
}

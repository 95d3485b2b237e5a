/**
 * GraphQL Playground (graphql-playground-middleware-express), served when `playgroundAlways` is
 * set or outside production, to GET requests that accept HTML. Its assets come from the installed
 * graphql-playground-react build, served here under `<endpoint>/playground-assets`: no CDN, so it
 * works offline (the page's web-font link is dropped for the same reason).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import playgroundMiddleware from 'graphql-playground-middleware-express';

type Render = (options: {
  endpoint: string;
  cdnUrl?: string;
  version?: string;
}) => (req: Request, res: Response, next: () => void) => void;

/** The CommonJS module's default export, whichever way the loader exposes it. */
function renderer(): Render {
  const loaded = playgroundMiddleware as unknown as Render | { default: Render };
  return typeof loaded === 'function' ? loaded : loaded.default;
}

function reactBuildDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('graphql-playground-react/package.json')), 'build');
}

const FONT_LINK = /<link[^>]*fonts\.googleapis\.com[^>]*>/g;

export function playground(endpoint: string): Router {
  const router = Router();
  const assets = `${endpoint.replace(/\/$/, '')}/playground-assets`;
  router.use(
    `${assets}/graphql-playground-react/build`,
    express.static(reactBuildDir(), { index: false, fallthrough: false }),
  );
  const page = renderer()({ endpoint, cdnUrl: assets });
  router.get(endpoint, (req, res, next) => {
    if (typeof req.query.query === 'string' || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    // render into a buffer, then answer without the external font link
    let html = '';
    const capture = {
      setHeader: () => capture,
      write: (chunk: string) => {
        html += chunk;
        return true;
      },
      end: () => undefined,
    } as unknown as Response;
    page(req, capture, next);
    res.type('html').send(html.replace(FONT_LINK, ''));
  });
  return router;
}

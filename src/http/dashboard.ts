import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from 'express';
import { projectRoot } from '../paths';
import { keepFileCache } from './api-headers';
import { pageHeaders } from './page-headers';

/** Where `npm run build:dashboard` (run by install, `npm run build` and test) writes the store dashboard. */
export const DASHBOARD_DIR = path.join(projectRoot, 'dashboard', 'dist');

/** A path the app routes itself (`/keys`, `/webhooks/whe_…`): no file extension. */
const isAppPath = (urlPath: string) => !path.posix.basename(urlPath).includes('.');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build:dashboard</code> (or <code>npm run build</code>,
which builds it too) and reload. The API answers meanwhile at <code>/graphql</code> and <code>/api/v1</code>.</p></main></body></html>`;

/**
 * The store dashboard (docs/design.md "The dashboard") at `/`: its hashed assets cached for a year, and every
 * other GET that asks for HTML and names no file (a deep link such as `/keys`) answered with the
 * app's index.html, so the app's router shows the page: `no-cache`, always revalidated (its ETag
 * makes that a 304), as it names the current build's assets; it holds no secret, so not `no-store`.
 * Mounted after the API doors, so their paths never reach it; a request that wants JSON still gets
 * the JSON 404.
 */
export function dashboardRouter(dir = DASHBOARD_DIR): Router {
  const router = Router();
  const indexFile = path.join(dir, 'index.html');
  // Read once: the file changes only with a build, which restarts the server in every workflow.
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: true,
      setHeaders: keepFileCache,
    }),
  );
  const page: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (!isAppPath(req.path) || !req.accepts('html')) return next();
    // One metrics label for every page of the app, never the raw path.
    req.state.route = 'dashboard';
    pageHeaders(res);
    res.setHeader('cache-control', 'no-cache');
    if (!index) return res.status(503).type('html').send(NOT_BUILT);
    res.type('html').send(index);
  };
  router.get('/{*path}', page);
  return router;
}

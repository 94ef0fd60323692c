import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import { projectRoot } from '../paths';
import { keepFileCache } from './api-headers';
import { pageHeaders } from './page-headers';

/** The page's own files (HTML, start-up script, styles). */
const PAGE_DIR = path.join(projectRoot, 'rest', 'reference');
/** Swagger UI as installed: the renderer is served from its npm package, never a CDN. */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The only files of the package the page uses. */
const SWAGGER_UI_FILES = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']);

/**
 * The REST API reference at `/docs`: Swagger UI, a maintained renderer, over the generated
 * `/api/v1/openapi.json`, with links to the dashboard and GraphQL. Public, like the document.
 */
export function referenceRouter(): Router {
  const router = Router();
  const index = readFileSync(path.join(PAGE_DIR, 'index.html'));
  const label = (req: Request) => {
    // One metrics label for the page and its files, never the raw path.
    req.state.route = 'docs';
  };
  router.get('/docs', (req: Request, res: Response) => {
    label(req);
    pageHeaders(res);
    res.setHeader('cache-control', 'no-cache');
    res.type('html').send(index);
  });
  const files = (dir: string, allowed: ReadonlySet<string>) => {
    const serve = express.static(dir, {
      index: false,
      maxAge: '1d',
      fallthrough: false,
      setHeaders: keepFileCache,
    });
    return (req: Request, res: Response, next: () => void) => {
      if (!allowed.has(req.path.slice(1))) return next();
      label(req);
      serve(req, res, next);
    };
  };
  router.use('/docs/assets', files(SWAGGER_UI_DIR, SWAGGER_UI_FILES));
  router.use('/docs', files(PAGE_DIR, new Set(['reference.js', 'reference.css'])));
  return router;
}

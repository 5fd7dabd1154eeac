import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { loadPrerenderedPages } from './prerendered-pages';

/**
 * First path segments that monitoring tools, scanners and orchestrators ask for. None is a
 * page of the app, and answering them with the app's HTML (200) would tell a prober that
 * the check passed: they get a JSON 404 like unknown API paths.
 */
const NOT_PAGES = new Set([
  'api',
  'metrics',
  'health',
  'healthz',
  'healthcheck',
  'livez',
  'readyz',
  'live',
  'ready',
  'status',
  'ping',
  'prometheus',
  'actuator',
  'debug',
  'server-status',
  'server-info',
]);

/**
 * Whether a path the build has no file for may get index.html: not an operational path, no
 * dot-file (`/.env`, `/.git/…`), and no file-like last segment (`/old-chunk.js`,
 * `/wp-login.php`): the app's own page paths have none.
 */
function isPagePath(urlPath: string): boolean {
  const segments = urlPath.split('/').filter((s) => s !== '');
  const first = (segments[0] ?? '').toLowerCase();
  if (NOT_PAGES.has(first) || first.startsWith('metrics') || first.startsWith('health'))
    return false;
  if (segments.some((s) => s.startsWith('.'))) return false;
  return !/\.[A-Za-z0-9]+$/.test(segments.at(-1) ?? '');
}

/**
 * Serves the built single-page app: real files from the build, the prerendered public
 * pages (and the not-found page, 404, under no page of the app), index.html for every
 * other page path so the browser's router can take it. Unknown /api paths, operational paths
 * (/metrics…, /healthz…) and missing files stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | null): Promise<void> {
  const hasBuild = distDir !== null && fs.existsSync(path.join(distDir, 'index.html'));
  // The build holds a brotli (`.br`) and a gzip (`.gz`) copy of each file worth compressing:
  // the one the browser's Accept-Encoding asks for is sent, with `Vary: Accept-Encoding`.
  if (hasBuild)
    await app.register(fastifyStatic, {
      root: distDir,
      serve: false,
      wildcard: false,
      preCompressed: true,
    });
  const prerendered = hasBuild ? loadPrerenderedPages(distDir) : null;

  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    const notFound = () => reply.status(404).send({ error: 'NOT_FOUND', message: 'Not found.' });
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    } catch {
      // A malformed escape names no file and no page.
      return notFound();
    }
    // No file of the build lives under /api: an API path never gets a file or the page.
    if (!hasBuild || /^\/api(\/|$)/i.test(urlPath)) return notFound();
    const relative = path
      .normalize(urlPath)
      .replace(/^(\.\.[/\\])+/, '')
      .replace(/^[/\\]+/, '');
    const file = path.join(distDir, relative);
    if (
      relative !== '' &&
      file.startsWith(distDir) &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      // Hashed build assets never change under the same name.
      const immutable = relative.startsWith('assets/');
      return reply.sendFile(relative, { maxAge: immutable ? '365d' : 0, immutable });
    }
    if (!isPagePath(urlPath)) return notFound();
    // With a query the page may differ from the prerendered one (`/auth?mode=signup`): the
    // shell renders it in the browser instead.
    const rawPath = request.url.split('?')[0] ?? '/';
    if (prerendered && !request.url.includes('?')) {
      const page = prerendered.reply(reply, urlPath, rawPath);
      if (page) return page;
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
}

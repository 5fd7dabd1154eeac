import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built single-page app: real files from the build, index.html for every
 * other page path so the browser's router can take it. Unknown /api paths stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | null): Promise<void> {
  const hasBuild = distDir !== null && fs.existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) await app.register(fastifyStatic, { root: distDir, serve: false, wildcard: false });

  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/') || !hasBuild) {
      return reply.status(404).send({ error: 'NOT_FOUND', message: 'Not found.' });
    }
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
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { maxAge: 0 });
  });
}

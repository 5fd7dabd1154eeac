import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@server/app';
import { createTestApp, type TestApp } from '@server-test/helpers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SHELL = '<!doctype html><title>Coffer</title><div id="root"></div>';
const NOT_FOUND_PATH = '/coffer-not-found-path';

/** A web build as the web build lays it out: the shell, and the prerendered pages. */
function fakeBuild(prerendered: boolean): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-web-'));
  fs.writeFileSync(path.join(dist, 'index.html'), SHELL);
  if (!prerendered) return dist;
  const dir = path.join(dist, 'prerendered');
  fs.mkdirSync(dir);
  const pages: Record<string, string> = {
    '/': 'home.html',
    '/about': 'about.html',
    '/auth': 'auth.html',
    [NOT_FOUND_PATH]: '404.html',
  };
  fs.writeFileSync(path.join(dir, 'home.html'), '<div id="root"><h1>Next-generation</h1></div>');
  fs.writeFileSync(path.join(dir, 'about.html'), '<div id="root"><h1>About Us</h1></div>');
  fs.writeFileSync(path.join(dir, 'auth.html'), '<div id="root"><h1>Sign In</h1></div>');
  fs.writeFileSync(
    path.join(dir, '404.html'),
    `<div id="root"><h1>Page Not Found</h1><dd>${NOT_FOUND_PATH}</dd></div>`,
  );
  fs.writeFileSync(
    path.join(dir, 'pages.json'),
    JSON.stringify({
      pages,
      notFoundPath: NOT_FOUND_PATH,
      appSegments: ['', 'about', 'auth', 'dashboard'],
    }),
  );
  return dist;
}

let t: TestApp;
const dists: string[] = [];
const apps: FastifyInstance[] = [];
async function serving(dist: string): Promise<FastifyInstance> {
  dists.push(dist);
  const app = await buildApp(
    { ...t.services, config: { ...t.services.config, webDistDir: dist } },
    { logger: false },
  );
  apps.push(app);
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const dist of dists) fs.rmSync(dist, { recursive: true, force: true });
  await t?.close();
});

describe('prerendered public pages', () => {
  let web: FastifyInstance;
  beforeAll(async () => {
    web = await serving(fakeBuild(true));
  });

  it('each public path gets its own page, content included, never cached stale', async () => {
    for (const [url, heading] of [
      ['/', 'Next-generation'],
      ['/about', 'About Us'],
      ['/auth', 'Sign In'],
      // The browser's router matches regardless of case and a trailing slash.
      ['/About/', 'About Us'],
    ] as const) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain(`<h1>${heading}</h1>`);
    }
  });

  it('a page asked for with a query gets the shell, which renders what the query asks', async () => {
    const res = await web.inject({ url: '/auth?mode=signup' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SHELL);
  });

  it('the portal and the back office keep the shell', async () => {
    for (const url of ['/dashboard', '/dashboard/admin/users', '/Dashboard/history']) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
    }
  });

  it('a path under no page of the app is the not-found page with 404, showing the path as sent', async () => {
    // As a browser sends it: `'` as is, `<` and `>` escaped.
    const res = await web.inject({ url: "/old-offer/it's%20%3Cgone%3E" });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<h1>Page Not Found</h1>');
    expect(res.body).toContain('<dd>/old-offer/it&#x27;s%20%3Cgone%3E</dd>');
    expect(res.body).not.toContain(NOT_FOUND_PATH);
  });

  it('unknown /api paths and missing files stay JSON 404s', async () => {
    for (const url of ['/api/nothing', '/assets/old-chunk.js', '/.env']) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ error: 'NOT_FOUND', message: 'Not found.' });
    }
  });
});

describe('a build without prerendered pages', () => {
  it('serves the shell for every page path, unknown ones included, as before', async () => {
    const web = await serving(fakeBuild(false));
    for (const url of ['/', '/about', '/no-such-page']) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(SHELL);
    }
  });
});

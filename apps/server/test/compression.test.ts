import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildApp } from '@server/app';
import { COMPRESS_THRESHOLD, registerCompression } from '@server/plugins/compression';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestApp,
  type SignedInUser,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from './helpers';
import { multipart } from './multipart';

let t: TestApp;
let admin: SignedInUser;
let customer: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await verifiedAdmin(t);
  customer = await verifiedCustomer(t);
});
afterAll(async () => {
  await t.close();
});

/** The body as the browser reads it: the encoding the server named, undone. */
function decoded(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return gunzipSync(res.rawPayload);
  if (encoding === undefined) return res.rawPayload;
  throw new Error(`unexpected content-encoding ${String(encoding)}`);
}

const asking = (encoding: string): Record<string, string> => ({ 'accept-encoding': encoding });

describe('API answers', () => {
  it('over 1 KB come compressed in the encoding the client asks for, and decode to the same answer', async () => {
    const plain = await call(t, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(plain.statusCode).toBe(200);
    // No Accept-Encoding: the answer as it is.
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);

    for (const [asked, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      // What browsers send: brotli is preferred.
      ['gzip, deflate, br, zstd', 'br'],
    ] as const) {
      const res = await call(t, {
        url: '/api/admin/settings',
        cookie: admin.cookie,
        headers: asking(asked),
      });
      expect(res.statusCode, asked).toBe(200);
      expect(res.headers['content-encoding'], asked).toBe(expected);
      expect(String(res.headers.vary), asked).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length, asked).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decoded(res).toString('utf8')), asked).toEqual(plain.json());
    }
  });

  it('are sent as they are to a client that asks for identity or an encoding Coffer does not offer', async () => {
    for (const asked of ['identity', 'deflate', 'compress']) {
      const res = await call(t, {
        url: '/api/admin/settings',
        cookie: admin.cookie,
        headers: asking(asked),
      });
      expect(res.statusCode, asked).toBe(200);
      expect(res.headers['content-encoding'], asked).toBeUndefined();
      expect(res.json().settings.length, asked).toBeGreaterThan(10);
    }
  });

  it('under 1 KB are not compressed: a few bytes gain less than the work costs', async () => {
    const res = await call(t, {
      url: '/api/session',
      cookie: customer.cookie,
      headers: asking('br'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().session.user.email).toBe(customer.email);
  });

  it('a CSV export streams compressed and decodes to the same file', async () => {
    const url = '/api/transactions/export.csv';
    const plain = await call(t, { url, cookie: customer.cookie });
    expect(plain.statusCode).toBe(200);
    const res = await call(t, { url, cookie: customer.cookie, headers: asking('gzip') });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    expect(decoded(res).toString('utf8')).toBe(plain.body);
  });
});

describe('answers that are never compressed', () => {
  it('a chat attachment is sent as stored, byte for byte, whatever the client accepts', async () => {
    const room = await call(t, {
      method: 'POST',
      url: '/api/chat/rooms',
      cookie: customer.cookie,
      body: {},
    });
    const notes = Buffer.from('tx 0xabc sent, waiting for it\n'.repeat(200));
    const body = multipart({ text: 'my notes' }, [
      { field: 'files', filename: 'notes.txt', bytes: notes },
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/rooms/${room.json().room.id}/attachments`,
      headers: { cookie: customer.cookie, origin: t.origin, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(sent.statusCode).toBe(200);
    const message = sent.json().messages.find((m: { file: unknown }) => m.file !== null);
    const res = await call(t, {
      url: `/api/chat/files/${message.id}`,
      cookie: customer.cookie,
      headers: asking('br, gzip'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(notes.length));
    expect(res.rawPayload.equals(notes)).toBe(true);
  });

  it('the 2FA setup, with the new secret, backup codes and recovery phrase, is sent uncompressed', async () => {
    const user = await signUpAndSignIn(t);
    const res = await call(t, {
      method: 'POST',
      url: '/api/2fa/setup',
      cookie: user.cookie,
      headers: asking('br, gzip'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    const setup = res.json();
    expect(setup.secret).toMatch(/^[A-Z2-7]+$/);
    expect(setup.seedPhrase.split(' ')).toHaveLength(12);
  });
});

describe('the list of uncompressed routes', () => {
  /** A small app with one listed route and one not, each answering the same 8 KB. */
  async function smallApp(list: { method: string; url: string; why: string }[]) {
    const app = Fastify();
    await registerCompression(app, list);
    const big = { words: 'abandon ability able about above absent '.repeat(200) };
    app.get('/secret', async () => big);
    app.get('/open', async () => big);
    return app;
  }

  it('keeps a listed route uncompressed and compresses its neighbour', async () => {
    const app = await smallApp([{ method: 'GET', url: '/secret', why: 'a test secret' }]);
    try {
      const secret = await app.inject({ url: '/secret', headers: asking('br') });
      const open = await app.inject({ url: '/open', headers: asking('br') });
      expect(secret.headers['content-encoding']).toBeUndefined();
      expect(open.headers['content-encoding']).toBe('br');
      expect(decoded(open).toString('utf8')).toBe(secret.body);
      // HEAD follows its GET.
      const head = await app.inject({ method: 'HEAD', url: '/secret', headers: asking('br') });
      expect(head.headers['content-encoding']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('refuses to start when a listed route does not exist, so a renamed route cannot lose its exclusion', async () => {
    const app = await smallApp([{ method: 'GET', url: '/renamed', why: 'a test secret' }]);
    await expect(app.ready()).rejects.toThrow('GET /renamed');
    await app.close();
  });
});

describe('the built web app', () => {
  // The production build (npm test builds before the unit tests), served as `npm start` does.
  const dist = path.resolve(import.meta.dirname, '../../web/dist');
  let web: FastifyInstance;
  /** The largest script every page starts with: the entry is a few bytes importing it. */
  let entry: string;
  beforeAll(async () => {
    const manifestFile = path.join(dist, '.vite/manifest.json');
    if (!fs.existsSync(manifestFile))
      throw new Error('No web build: run `npm run build` first (npm test does).');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<
      string,
      { file: string; imports?: string[] }
    >;
    const shell = manifest['index.html'];
    const scripts = [shell?.file, ...(shell?.imports ?? []).map((key) => manifest[key]?.file)]
      .filter((file): file is string => typeof file === 'string' && file.endsWith('.js'))
      .sort((a, b) => fs.statSync(path.join(dist, b)).size - fs.statSync(path.join(dist, a)).size);
    entry = `/${scripts[0]}`;
    web = await buildApp(
      { ...t.services, config: { ...t.services.config, webDistDir: dist } },
      { logger: false },
    );
  });
  afterAll(async () => {
    await web?.close();
  });

  it('sends the brotli or gzip copy made at build time, which decodes to the file itself', async () => {
    for (const [url, file] of [
      [() => entry, () => entry.slice(1)],
      // The landing page is prerendered at build time: its own file, compressed the same way.
      [() => '/', () => 'prerendered/home.html'],
    ] as const) {
      const original = fs.readFileSync(path.join(dist, file()));
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await web.inject({ url: url(), headers: asking(encoding) });
        expect(res.statusCode, url()).toBe(200);
        expect(res.headers['content-encoding'], url()).toBe(encoding);
        expect(String(res.headers.vary), url()).toMatch(/accept-encoding/i);
        expect(res.rawPayload.length, url()).toBeLessThan(original.length);
        expect(decoded(res).equals(original), url()).toBe(true);
      }
    }
  });

  it('sends a page of the app its shell: the compressed copy when the build made one', async () => {
    const original = fs.readFileSync(path.join(dist, 'index.html'));
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await web.inject({ url: '/dashboard/history', headers: asking(encoding) });
      expect(res.statusCode).toBe(200);
      // The shell is under the 1 KB worth compressing when the public pages are prerendered.
      const copied = fs.existsSync(
        path.join(dist, `index.html.${encoding === 'br' ? 'br' : 'gz'}`),
      );
      expect(res.headers['content-encoding']).toBe(copied ? encoding : undefined);
      expect(decoded(res).equals(original)).toBe(true);
    }
  });

  it('sends the file itself to a client that accepts no encoding, and keeps the cache headers', async () => {
    const original = fs.readFileSync(path.join(dist, entry.slice(1)));
    const res = await web.inject({ url: entry });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.rawPayload.equals(original)).toBe(true);
    // Hashed assets never change under their name; the page is checked each time.
    const br = await web.inject({ url: entry, headers: asking('br') });
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    const page = await web.inject({ url: '/', headers: asking('br') });
    expect(page.headers['cache-control']).toMatch(/max-age=0|no-cache/);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

type ListedRoute = { method: string; url: string; why: string };

/** An answer over this many bytes is compressed; a smaller one gains less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * The routes whose answers are never compressed, and why (decision 0031). Everything else
 * is compressed with the encoding the client asks for (brotli, else gzip) when it is over
 * `COMPRESS_THRESHOLD` bytes or a stream.
 *
 * Secrets: a compressed answer's length tells a network observer how well the secret in it
 * compresses together with text an attacker put beside it (BREACH); an answer carrying a
 * secret is sent as it is, whatever its size. Files: sent as stored, with their exact
 * length. A GET route's HEAD twin follows it.
 */
export const UNCOMPRESSED_ROUTES: readonly ListedRoute[] = [
  {
    method: 'POST',
    url: '/api/2fa/setup',
    why: 'the new authenticator secret, its otpauth link, the backup codes and the new recovery phrase',
  },
  { method: 'GET', url: '/api/recovery-phrase', why: 'the recovery phrase' },
  { method: 'POST', url: '/api/recovery-phrase/generate', why: 'the recovery phrase' },
  { method: 'GET', url: '/api/realtime', why: 'a socket, not an answer' },
  { method: 'GET', url: '/api/kyc/documents/:side', why: 'an identity document, a private file' },
  {
    method: 'GET',
    url: '/api/admin/kyc/:id/documents/:side',
    why: 'an identity document, a private file',
  },
  { method: 'GET', url: '/api/chat/files/:messageId', why: 'a chat attachment, a private file' },
  {
    method: 'GET',
    url: '/api/admin/chat/files/:messageId',
    why: 'a chat attachment, a private file',
  },
  { method: 'GET', url: '/media/promo.mp4', why: 'a video: already compressed' },
  {
    method: 'GET',
    url: '/*',
    why: "the web build's files: compressed once when the app is built, served as they are",
  },
];

function listedRoute(list: readonly ListedRoute[], method: string, url: string) {
  return list.find(
    (r) => r.url === url && (r.method === method || (r.method === 'GET' && method === 'HEAD')),
  );
}

/**
 * Compresses answers (brotli or gzip, as the client's Accept-Encoding prefers; none without
 * one) except on `UNCOMPRESSED_ROUTES`. Registered before any route, so every route gets it.
 * Request bodies are never inflated: a small compressed body must not become a large one
 * behind the body limit's back.
 */
export async function registerCompression(
  app: FastifyInstance,
  uncompressed: readonly ListedRoute[] = UNCOMPRESSED_ROUTES,
): Promise<void> {
  const seen = new Set<ListedRoute>();
  // Runs before the compression plugin's own hook (registered below), which reads this flag.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const listed = listedRoute(uncompressed, method, route.url ?? '');
      if (!listed) continue;
      seen.add(listed);
      route.compress = false;
    }
  });
  // A renamed route would silently lose its exclusion: the app refuses to start instead.
  app.addHook('onReady', async () => {
    const missing = uncompressed.filter((r) => !seen.has(r));
    if (missing.length > 0) {
      throw new Error(
        `Uncompressed routes that do not exist: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`,
      );
    }
  });
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
}

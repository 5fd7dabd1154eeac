import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@server/lib/app-error';
import type { Metrics } from '@server/lib/metrics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Health } from './health.service';

const ZCheck = z.object({ ok: z.boolean(), detail: z.string().optional() });
const ZReadiness = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: ZCheck,
    migrations: ZCheck,
    jobs: ZCheck,
    priceFeed: ZCheck,
    reconciliation: ZCheck,
    outbox: ZCheck,
  }),
  problems: z.array(z.string()),
});
/** A probe that failed is asked again soon; this tells a client how soon is useful. */
const RETRY_AFTER_SECONDS = '10';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * Who may read /metrics (docs/decisions, README "Health and metrics"): with METRICS_TOKEN set,
 * whoever sends it as a bearer token; without it, only a client on this machine that no proxy
 * relayed. The socket's address is used, never X-Forwarded-For (which a client can write), and
 * a request carrying forwarding headers is refused: a reverse proxy on the same machine would
 * otherwise make every visitor look local.
 */
function assertMayReadMetrics(request: FastifyRequest, token: string | null): void {
  if (token) {
    const sent = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Compared as digests: equal lengths, and no timing hint about the token.
    if (!timingSafeEqual(sha256(sent), sha256(token)))
      throw new AppError('UNAUTHENTICATED', 'Metrics need the bearer token set in METRICS_TOKEN.');
    return;
  }
  const relayed = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some(
    (h) => request.headers[h] !== undefined,
  );
  if (relayed || !isLoopback(request.socket.remoteAddress))
    throw new AppError(
      'FORBIDDEN',
      'Metrics are readable from this machine only; set METRICS_TOKEN to read them from elsewhere.',
    );
}

export function healthRoutes(
  health: Health,
  metrics: Metrics,
  metricsToken: string | null,
): FastifyPluginAsyncZod {
  return async (app) => {
    // The first health check, kept for its callers: 200 while the database answers, else 503.
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          response: { 200: z.object({ ok: z.boolean() }), 503: z.object({ ok: z.boolean() }) },
        },
      },
      async (_request, reply) => {
        if (await health.databaseUp()) return { ok: true };
        return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send({ ok: false });
      },
    );

    // The process is up and its event loop turns: nothing else is asked, so a database
    // outage never gets a healthy process restarted.
    app.get(
      '/api/health/live',
      {
        config: { access: 'public' },
        schema: { response: { 200: z.object({ ok: z.boolean() }) } },
      },
      async () => ({ ok: true }),
    );

    app.get(
      '/api/health/ready',
      { config: { access: 'public' }, schema: { response: { 200: ZReadiness, 503: ZReadiness } } },
      async (_request, reply) => {
        const readiness = await health.ready();
        if (readiness.ready) return readiness;
        return reply.status(503).header('retry-after', RETRY_AFTER_SECONDS).send(readiness);
      },
    );

    // Public to the gate (no session); its own rule decides, before anything is measured.
    app.get('/metrics', { config: { access: 'public' } }, async (request, reply) => {
      assertMayReadMetrics(request, metricsToken);
      const page = await metrics.render();
      return reply.type(page.contentType).send(page.body);
    });
  };
}

/**
 * Counts and times every answered request by its route's pattern. Added to the root
 * instance (not inside a plugin) so that it sees every route, 404s included.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

import { MSG } from '@coffer/shared';
import fastifyWebsocket from '@fastify/websocket';
import { AppError } from '@server/lib/app-error';
import { isOwnOrigin } from '@server/plugins/csrf';
import { signedIn } from '@server/plugins/require-session';
import { SESSION_COOKIE } from '@server/plugins/session';
import type { FastifyInstance } from 'fastify';
import type { RealtimeHub } from './realtime.hub';

/**
 * `GET /api/realtime`: the one websocket (docs/architecture.md). The gate admits the upgrade
 * like any customer route (a session that passed 2FA, customer or admin); the upgrade must
 * also come from this app's own pages (`Origin`): browsers send cookies with a cross-site
 * websocket, and a GET is not covered by the CSRF guard.
 *
 * Registered on the root (not as an encapsulated plugin) so that a refused upgrade to any
 * route, answered with an ordinary HTTP error, has its connection closed afterwards.
 */
export async function registerRealtime(
  app: FastifyInstance,
  hub: RealtimeHub,
  publicUrl: string,
): Promise<void> {
  const publicOrigin = new URL(publicUrl).origin;
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 4 * 1024 },
    // In place of the plugin's own, which closes sockets without a code (1005): each gets
    // "server restarting" (1012), the browser's cue to reconnect soon. Not awaited: the
    // server stops listening right after this hook, and its stop then waits for these
    // sockets as for the requests in flight.
    preClose: async function closeSockets(this: FastifyInstance) {
      void hub.closeForRestart();
      this.websocketServer.close();
    },
  });
  app.addHook('onClose', async () => {
    await hub.stop();
  });
  // An upgrade answered with a plain HTTP response (401, 403, 404) leaves a raw connection
  // that no HTTP parser owns any more: end it once the answer is written.
  app.addHook('onResponse', (request, _reply, done) => {
    // Node marks a request that arrived through the server's 'upgrade' event.
    if ((request.raw as { upgrade?: boolean }).upgrade) {
      const socket = request.raw.socket;
      socket.end();
      setTimeout(() => socket.destroy(), 1_000).unref();
    }
    done();
  });

  app.get(
    '/api/realtime',
    {
      websocket: true,
      config: { access: 'customer' },
      onRequest: (request, _reply, done) => {
        const { origin, host } = request.headers;
        if (!isOwnOrigin(origin, host, publicOrigin, request.protocol)) {
          return done(new AppError('FOREIGN_ORIGIN', MSG.foreignOrigin));
        }
        done();
      },
    },
    (socket, request) => {
      const session = signedIn(request);
      hub.accept(socket, request.cookies[SESSION_COOKIE] ?? '', session);
    },
  );
}

import {
  ZActiveSessionsResponse,
  ZChangePasswordRequest,
  ZOk,
  ZSessionIdParams,
  ZSignOutOthersResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { SessionCookies } from '@server/plugins/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountSecurityService } from './account-security.service';

/** Every route here is the gate's default, `customer`: admins are customers too. */
export function accountSecurityRoutes(
  service: AccountSecurityService,
  cookies: SessionCookies,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/sessions',
      { schema: { response: { 200: ZActiveSessionsResponse } } },
      async (request) => ({ sessions: await service.list(signedIn(request)) }),
    );

    app.delete(
      '/api/sessions/:id',
      { schema: { params: ZSessionIdParams, response: { 200: ZOk } } },
      async (request, reply) => {
        const session = signedIn(request);
        await service.signOut(session, request.params.id, clientOf(request));
        // Ending this very session is signing out: the browser forgets the cookie too.
        if (request.params.id === session.sessionId) cookies.clear(reply);
        return { ok: true as const };
      },
    );

    app.post(
      '/api/sessions/sign-out-others',
      { schema: { response: { 200: ZSignOutOthersResponse } } },
      async (request) => ({
        signedOut: await service.signOutOthers(signedIn(request), clientOf(request)),
      }),
    );

    app.post(
      '/api/account/password',
      { schema: { body: ZChangePasswordRequest, response: { 200: ZOk } } },
      async (request) => {
        await service.changePassword(signedIn(request), request.body, clientOf(request));
        return { ok: true as const };
      },
    );
  };
}

import {
  ZOk,
  ZPasskeyIdParams,
  ZPasskeyListResponse,
  ZPasskeyOptionsResponse,
  ZPasskeyRegisterRequest,
  ZPasskeyRenameWithStepUp,
  ZPasskeyResponse,
  ZPasskeySignInRequest,
  ZPasskeySignInStatusResponse,
  ZSessionResponse,
  ZStepUp,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { SessionCookies } from '@server/plugins/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { presentSession, type Sessions } from '../sessions';
import type { PasskeysService } from './passkeys.service';

/**
 * Managing passkeys is the gate's default, `customer` (a session that passed 2FA). The
 * sign-in routes are `signed-in`, like /api/2fa/verify: they are how a password-only
 * session passes its second factor.
 */
export function passkeysRoutes(
  service: PasskeysService,
  sessions: Sessions,
  cookies: SessionCookies,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/passkeys',
      { schema: { response: { 200: ZPasskeyListResponse } } },
      async (request) => service.list(signedIn(request)),
    );

    app.post(
      '/api/passkeys/register/options',
      { schema: { response: { 200: ZPasskeyOptionsResponse } } },
      async (request) => ({ options: await service.registrationOptions(signedIn(request)) }),
    );

    app.post(
      '/api/passkeys/register',
      { schema: { body: ZPasskeyRegisterRequest, response: { 200: ZPasskeyResponse } } },
      async (request) => ({
        passkey: await service.register(signedIn(request), request.body, clientOf(request)),
      }),
    );

    app.patch(
      '/api/passkeys/:id',
      {
        schema: {
          params: ZPasskeyIdParams,
          body: ZPasskeyRenameWithStepUp,
          response: { 200: ZPasskeyResponse },
        },
      },
      async (request) => ({
        passkey: await service.rename(
          signedIn(request),
          { id: request.params.id, name: request.body.name, stepUp: request.body.stepUp },
          clientOf(request),
        ),
      }),
    );

    app.post(
      '/api/passkeys/:id/remove',
      { schema: { params: ZPasskeyIdParams, body: ZStepUp, response: { 200: ZOk } } },
      async (request) => {
        await service.remove(signedIn(request), request.params.id, request.body, clientOf(request));
        return { ok: true as const };
      },
    );

    // A challenge to sign with one of the account's passkeys: at sign-in (before 2FA is
    // passed, hence signed-in) and to confirm a removal.
    app.post(
      '/api/passkeys/assert/options',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZPasskeyOptionsResponse } } },
      async (request) => ({ options: await service.assertionOptions(signedIn(request)) }),
    );

    app.get(
      '/api/passkeys/sign-in',
      {
        config: { access: 'signed-in' },
        schema: { response: { 200: ZPasskeySignInStatusResponse } },
      },
      async (request) => service.signInStatus(signedIn(request)),
    );

    app.post(
      '/api/passkeys/sign-in',
      {
        config: { access: 'signed-in' },
        schema: { body: ZPasskeySignInRequest, response: { 200: ZSessionResponse } },
      },
      async (request, reply) => {
        const token = await service.verifySignIn(
          signedIn(request),
          request.body.assertion,
          clientOf(request),
        );
        // After a passed second factor the browser gets the rotated token and the new state.
        cookies.set(reply, request, token);
        const session = await sessions.findByToken(token);
        return { session: session ? presentSession(session) : null };
      },
    );
  };
}

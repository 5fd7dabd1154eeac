import {
  ZOk,
  ZSessionResponse,
  ZStepUp,
  ZTwoFactorEnableRequest,
  ZTwoFactorResetRequest,
  ZTwoFactorSetupResponse,
  ZTwoFactorStatusResponse,
  ZTwoFactorVerifyRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import { SESSION_COOKIE, type SessionCookies } from '@server/plugins/session';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { presentSession, type Sessions } from '../sessions';
import type { TwoFactorService } from './two-factor.service';

export function twoFactorRoutes(
  { twoFactor, sessions }: { twoFactor: TwoFactorService; sessions: Pick<Sessions, 'findByToken'> },
  cookies: SessionCookies,
): FastifyPluginAsyncZod {
  /** After a passed second factor the browser gets the rotated token and the new state. */
  async function answerWithSession(request: FastifyRequest, reply: FastifyReply, token: string) {
    cookies.set(reply, request, token);
    const session = await sessions.findByToken(token);
    return { session: session ? presentSession(session) : null };
  }

  return async (app) => {
    app.get(
      '/api/2fa/status',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZTwoFactorStatusResponse } } },
      async (request) => {
        const session = signedIn(request);
        return twoFactor.status(session.userId, session);
      },
    );

    app.post(
      '/api/2fa/setup',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZTwoFactorSetupResponse } } },
      async (request) => twoFactor.setup(signedIn(request)),
    );

    app.post(
      '/api/2fa/setup/cancel',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZOk } } },
      async (request) => {
        await twoFactor.cancel(signedIn(request));
        return { ok: true as const };
      },
    );

    app.post(
      '/api/2fa/enable',
      {
        config: { access: 'signed-in' },
        schema: { body: ZTwoFactorEnableRequest, response: { 200: ZSessionResponse } },
      },
      async (request, reply) => {
        const token = await twoFactor.enable(signedIn(request), request.body, clientOf(request));
        return answerWithSession(request, reply, token);
      },
    );

    app.post(
      '/api/2fa/verify',
      {
        config: { access: 'signed-in' },
        schema: { body: ZTwoFactorVerifyRequest, response: { 200: ZSessionResponse } },
      },
      async (request, reply) => {
        const token = await twoFactor.verify(signedIn(request), request.body, clientOf(request));
        return answerWithSession(request, reply, token);
      },
    );

    app.post(
      '/api/2fa/reset-with-phrase',
      {
        config: { access: 'signed-in', multilineFields: ['seedPhrase'] },
        schema: { body: ZTwoFactorResetRequest, response: { 200: ZSessionResponse } },
      },
      async (request) => {
        const session = signedIn(request);
        await twoFactor.resetWithPhrase(session, request.body.seedPhrase, clientOf(request));
        const fresh = await sessions.findByToken(request.cookies[SESSION_COOKIE] ?? '');
        return { session: fresh ? presentSession(fresh) : null };
      },
    );

    app.post(
      '/api/2fa/disable',
      { schema: { body: ZStepUp, response: { 200: ZOk } } },
      async (request) => {
        await twoFactor.disable(signedIn(request), request.body, clientOf(request));
        return { ok: true as const };
      },
    );
  };
}

import {
  ZOk,
  ZResendVerificationRequest,
  ZResetPasswordRequest,
  ZSessionResponse,
  ZSignInRequest,
  ZSignUpRequest,
  ZVerifyEmailRequest,
} from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../app-services';
import { clientOf } from '../../lib/client-of';
import { SESSION_COOKIE, type SessionCookies } from '../../plugins/session';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, DEVICE_COOKIE_PATH } from '../rate-limit';
import { presentSession } from '../sessions';

export function authRoutes(s: Services, cookies: SessionCookies): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/session',
      { config: { access: 'public' }, schema: { response: { 200: ZSessionResponse } } },
      async (request) => ({ session: request.session ? presentSession(request.session) : null }),
    );

    app.post(
      '/api/auth/sign-up',
      { config: { access: 'public' }, schema: { body: ZSignUpRequest, response: { 200: ZOk } } },
      async (request) => {
        await s.auth.signUp(request.body.email, request.body.password, clientOf(request));
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/verify-email',
      {
        config: { access: 'public' },
        schema: { body: ZVerifyEmailRequest, response: { 200: ZOk } },
      },
      async (request) => {
        await s.auth.verifyEmail(request.body.token);
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/resend-verification',
      {
        config: { access: 'public' },
        schema: { body: ZResendVerificationRequest, response: { 200: ZOk } },
      },
      async (request) => {
        await s.auth.resendVerification(request.body.email, clientOf(request));
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/sign-in',
      {
        config: { access: 'public' },
        schema: { body: ZSignInRequest, response: { 200: ZSessionResponse } },
      },
      async (request, reply) => {
        const deviceCookie = request.cookies[DEVICE_COOKIE];
        const token = await s.auth.signIn(
          request.body.email,
          request.body.password,
          clientOf(request),
          deviceCookie,
        );
        // A fresh session id at every sign-in; the one the browser had (if any) ends.
        if (request.session) await s.sessions.revoke(request.session.sessionId);
        cookies.set(reply, request, token);
        // The right password: this browser is now a known device of the account.
        reply.setCookie(DEVICE_COOKIE, s.signInDevices.remember(deviceCookie, request.body.email), {
          path: DEVICE_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: s.config.publicUrl.startsWith('https://') || request.protocol === 'https',
          maxAge: DEVICE_COOKIE_MAX_AGE_S,
        });
        const session = await s.sessions.findByToken(token);
        if (session) await s.accountSecurity.noticeSignIn(session, clientOf(request));
        return { session: session ? presentSession(session) : null };
      },
    );

    app.post(
      '/api/auth/sign-out',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZOk } } },
      async (request, reply) => {
        if (request.session) await s.sessions.revoke(request.session.sessionId);
        cookies.clear(reply);
        return { ok: true as const };
      },
    );

    app.post(
      '/api/auth/reset-password',
      {
        config: { access: 'public', multilineFields: ['recoveryPhrase'] },
        schema: { body: ZResetPasswordRequest, response: { 200: ZOk } },
      },
      async (request, reply) => {
        await s.auth.resetPassword(
          request.body.recoveryPhrase,
          request.body.newPassword,
          clientOf(request),
        );
        if (request.cookies[SESSION_COOKIE]) cookies.clear(reply);
        return { ok: true as const };
      },
    );
  };
}

import {
  ZOk,
  ZResendVerificationRequest,
  ZResetPasswordRequest,
  ZSessionResponse,
  ZSignInRequest,
  ZSignUpRequest,
  ZVerifyEmailRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { SESSION_COOKIE, type SessionCookies } from '@server/plugins/session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountSecurityService } from '../account-security';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_S,
  DEVICE_COOKIE_PATH,
  type SignInDevices,
} from '../rate-limit';
import { presentSession, type Sessions } from '../sessions';
import type { AuthService } from './auth.service';

export function authRoutes(
  deps: {
    auth: AuthService;
    sessions: Sessions;
    signInDevices: SignInDevices;
    accountSecurity: Pick<AccountSecurityService, 'noticeSignIn'>;
    publicUrl: string;
  },
  cookies: SessionCookies,
): FastifyPluginAsyncZod {
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
        await deps.auth.signUp(request.body.email, request.body.password, clientOf(request));
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
        await deps.auth.verifyEmail(request.body.token);
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
        await deps.auth.resendVerification(request.body.email, clientOf(request));
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
        const token = await deps.auth.signIn(
          request.body.email,
          request.body.password,
          clientOf(request),
          deviceCookie,
        );
        // A fresh session id at every sign-in; the one the browser had (if any) ends.
        if (request.session) await deps.sessions.revoke(request.session.sessionId);
        cookies.set(reply, request, token);
        // The right password: this browser is now a known device of the account.
        reply.setCookie(
          DEVICE_COOKIE,
          deps.signInDevices.remember(deviceCookie, request.body.email),
          {
            path: DEVICE_COOKIE_PATH,
            httpOnly: true,
            sameSite: 'strict',
            secure: deps.publicUrl.startsWith('https://') || request.protocol === 'https',
            maxAge: DEVICE_COOKIE_MAX_AGE_S,
          },
        );
        const session = await deps.sessions.findByToken(token);
        if (session) await deps.accountSecurity.noticeSignIn(session, clientOf(request));
        return { session: session ? presentSession(session) : null };
      },
    );

    app.post(
      '/api/auth/sign-out',
      { config: { access: 'signed-in' }, schema: { response: { 200: ZOk } } },
      async (request, reply) => {
        if (request.session) await deps.sessions.revoke(request.session.sessionId);
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
        await deps.auth.resetPassword(
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

import {
  ZAdminUserIdParams,
  ZFreezeRequest,
  ZOk,
  ZSecurityHoldStatus,
  ZSetPasswordRequest,
  ZUnfreezeApproval,
  ZUnfreezeRejection,
  ZUnfreezeRequest,
  ZUnfreezeState,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecurityHold } from './security-hold.service';

export function securityHoldRoutes(hold: SecurityHold): FastifyPluginAsyncZod {
  return async (app) => {
    // The link in a hold mail: it works without a session (the customer may be locked out).
    app.post(
      '/api/security/freeze',
      {
        config: { access: 'public' },
        schema: { body: ZFreezeRequest, response: { 200: ZOk, ...ERROR_RESPONSES } },
      },
      async (request) => {
        await hold.freeze(request.body.token, request.ip);
        return { ok: true as const };
      },
    );

    app.get(
      '/api/security/hold',
      { schema: { response: { 200: ZSecurityHoldStatus, ...ERROR_RESPONSES } } },
      async (request) => hold.status(signedIn(request).userId),
    );

    // The link mailed after two admins lifted a freeze: the owner is signed out everywhere.
    app.post(
      '/api/security/set-password',
      {
        config: { access: 'public' },
        schema: { body: ZSetPasswordRequest, response: { 200: ZOk, ...ERROR_RESPONSES } },
      },
      async (request) => {
        await hold.setPasswordWithLink(
          request.body.token,
          request.body.newPassword,
          clientOf(request),
        );
        return { ok: true as const };
      },
    );

    // Lifting a freeze takes two admins: one asks (with a reason), another approves or rejects.
    app.get(
      '/api/admin/users/:id/unfreeze',
      {
        config: { permission: 'customers.read', access: 'admin' },
        schema: {
          params: ZAdminUserIdParams,
          response: { 200: ZUnfreezeState, ...ERROR_RESPONSES },
        },
      },
      async (request) => hold.unfreezeState(request.params.id),
    );

    app.post(
      '/api/admin/users/:id/unfreeze',
      {
        config: { permission: 'customers.protect', access: 'admin', multilineFields: ['reason'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZUnfreezeRequest,
          response: { 202: ZUnfreezeState, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const state = await hold.requestUnfreeze(
          { session: signedIn(request), client: clientOf(request) },
          request.params.id,
          request.body.reason,
          request.body.stepUp,
        );
        return reply.code(202).send(state);
      },
    );

    app.post(
      '/api/admin/users/:id/unfreeze/approve',
      {
        config: { permission: 'customers.protect', access: 'admin' },
        schema: {
          params: ZAdminUserIdParams,
          body: ZUnfreezeApproval,
          response: { 200: ZUnfreezeState, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        hold.approveUnfreeze(
          { session: signedIn(request), client: clientOf(request) },
          request.params.id,
          request.body.stepUp,
        ),
    );

    app.post(
      '/api/admin/users/:id/unfreeze/reject',
      {
        config: { permission: 'customers.protect', access: 'admin', multilineFields: ['reason'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZUnfreezeRejection,
          response: { 200: ZUnfreezeState, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        hold.rejectUnfreeze(
          { session: signedIn(request), client: clientOf(request) },
          request.params.id,
          request.body.reason,
          request.body.stepUp,
        ),
    );
  };
}

import {
  ZAdminUserIdParams,
  ZFreezeRequest,
  ZOk,
  ZSecurityHoldStatus,
  ZUnfreezeRequest,
} from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ERROR_RESPONSES } from '../../lib/error-responses';
import { signedIn } from '../../plugins/require-session';
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

    app.post(
      '/api/admin/users/:id/unfreeze',
      {
        config: { access: 'admin', multilineFields: ['reason'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZUnfreezeRequest,
          response: { 200: ZOk, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        await hold.unfreeze(
          { adminId: signedIn(request).userId, ip: request.ip },
          request.params.id,
          request.body.reason,
        );
        return { ok: true as const };
      },
    );
  };
}

import { ZAdminUserIdParams, ZSecurityActivityResponse } from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecurityLog } from './security-log.service';

export function securityLogRoutes(log: SecurityLog): FastifyPluginAsyncZod {
  return async (app) => {
    // The gate's default, `customer`: admins see their own activity here too.
    app.get(
      '/api/security/activity',
      { schema: { response: { 200: ZSecurityActivityResponse, ...ERROR_RESPONSES } } },
      async (request) => ({ events: await log.activity(signedIn(request).userId) }),
    );

    app.get(
      '/api/admin/users/:id/security-activity',
      {
        config: { access: 'admin', permission: 'customers.read' },
        schema: {
          params: ZAdminUserIdParams,
          response: { 200: ZSecurityActivityResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        events: await log.forStaff(
          { adminId: signedIn(request).userId, ip: request.ip },
          request.params.id,
        ),
      }),
    );
  };
}

import { ZDashboardResponse } from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Dashboard } from './dashboard.service';

/** The dashboard's one read; the gate's default (customer) access. */
export function dashboardRoutes(dashboard: Dashboard): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/dashboard',
      { schema: { response: { 200: ZDashboardResponse, ...ERROR_RESPONSES } } },
      async (request) => dashboard.read(signedIn(request).userId),
    );
  };
}

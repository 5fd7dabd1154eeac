import { ZAdminOverview } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../app-services';

/** The admin tree: every route here is `access: 'admin'` (STYLE habit 12). */
export function adminRoutes(s: Services): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'admin' };
    });

    app.get('/api/admin/overview', { schema: { response: { 200: ZAdminOverview } } }, async () => {
      let database = true;
      try {
        await s.pool.query('SELECT 1');
      } catch {
        database = false;
      }
      return {
        totalUsers: await s.users.countAll(),
        health: { database, checkedAt: new Date().toISOString() },
      };
    });
  };
}

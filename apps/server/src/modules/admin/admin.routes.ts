import { ZAdminOverview } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../app-services';
import { adminAuditRoutes } from '../admin-audit';
import { adminSettingsRoutes } from '../admin-settings';
import { adminTransactionsRoutes } from '../admin-transactions';
import { adminUsersRoutes, createAdminUsersService } from '../admin-users';
import { adminWalletsRoutes } from '../admin-wallets';
import { adminChainsRoutes } from '../chains';
import { adminChatRoutes } from '../chat';
import { adminKycRoutes } from '../kyc';
import { payoutsRoutes } from '../payouts';

/** The admin tree: every route here is `access: 'admin'` (STYLE habit 12). */
export function adminRoutes(s: Services): FastifyPluginAsyncZod {
  // Dashboard tiles (DEVIATIONS M5): computed by the users-management service.
  const overview = createAdminUsersService(s);
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'admin' };
    });
    await app.register(adminChatRoutes(s));
    await app.register(adminUsersRoutes(s));
    await app.register(adminSettingsRoutes(s));
    await app.register(adminAuditRoutes(s));
    await app.register(adminWalletsRoutes(s));
    await app.register(adminKycRoutes(s));
    await app.register(adminTransactionsRoutes(s));
    await app.register(adminChainsRoutes(s));
    await app.register(payoutsRoutes({ payouts: s.payouts, stepUp: s.stepUp }));

    app.get('/api/admin/overview', { schema: { response: { 200: ZAdminOverview } } }, async () =>
      overview.overview(),
    );
  };
}

import { ZAdminOverview } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { type AdminAuditService, adminAuditRoutes } from '../admin-audit';
import { type AdminSettingsService, adminSettingsRoutes } from '../admin-settings';
import { type AdminTransactionsService, adminTransactionsRoutes } from '../admin-transactions';
import { type AdminUsersService, adminUsersRoutes } from '../admin-users';
import { type AdminWalletsService, adminWalletsRoutes } from '../admin-wallets';
import { adminChainsRoutes, type ChainAdapter, type ChainConfigs } from '../chains';
import { adminChatRoutes, type ChatService } from '../chat';
import { adminKycRoutes, type KycService } from '../kyc';
import { type PayoutsService, payoutsRoutes } from '../payouts';
import { type StaffService, staffRoutes } from '../staff';
import { type StaffChanges, staffChangesRoutes } from '../staff-changes';
import type { StepUp } from '../step-up';

/**
 * The admin tree: every route here is `access: 'admin'` and declares the permission it
 * needs of the staff member's roles (docs/roles.md); the gate refuses to start otherwise.
 */
export function adminRoutes(deps: {
  adminUsers: AdminUsersService;
  adminSettings: AdminSettingsService;
  adminAudit: AdminAuditService;
  adminWallets: AdminWalletsService;
  adminTransactions: AdminTransactionsService;
  kyc: KycService;
  chat: ChatService;
  payouts: PayoutsService;
  staffChanges: StaffChanges;
  staff: StaffService;
  stepUp: Pick<StepUp, 'confirm'>;
  pool: pg.Pool;
  chainAdapters: readonly ChainAdapter[];
  chains: ChainConfigs;
}): FastifyPluginAsyncZod {
  const { pool, chainAdapters, chains, payouts, stepUp } = deps;
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'admin' };
    });
    await app.register(adminChatRoutes(deps.chat));
    await app.register(adminUsersRoutes(deps.adminUsers));
    await app.register(adminSettingsRoutes(deps.adminSettings));
    await app.register(adminAuditRoutes(deps.adminAudit));
    await app.register(adminWalletsRoutes(deps.adminWallets));
    await app.register(adminKycRoutes(deps.kyc));
    await app.register(adminTransactionsRoutes(deps.adminTransactions));
    await app.register(adminChainsRoutes({ pool, chainAdapters, chains }));
    await app.register(payoutsRoutes({ payouts, stepUp }));
    await app.register(staffChangesRoutes(deps.staffChanges));
    await app.register(staffRoutes(deps.staff));

    // The dashboard's tiles: computed by the users-management service.
    app.get(
      '/api/admin/overview',
      { config: { permission: 'back-office.read' }, schema: { response: { 200: ZAdminOverview } } },
      async () => deps.adminUsers.overview(),
    );
  };
}

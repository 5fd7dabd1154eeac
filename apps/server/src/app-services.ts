import { setBitcoinAddressNetwork } from '@coffer/shared';
import { createAccountServices } from './app-services-accounts';
import { createAdminServices, createSupportServices } from './app-services-admin';
import { createChainServices } from './app-services-chains';
import { createDashboardServices } from './app-services-dashboard';
import { createMoneyServices } from './app-services-money';
import { createPlatform, type Infra } from './app-services-platform';
import { createMetrics } from './lib/metrics';
import { createHealth } from './modules/health';
import { createStaffChanges } from './modules/staff-changes';

export type { Infra } from './app-services-platform';

/**
 * Wires repositories and services once; routes receive what they need from here. Each area
 * is built by its own function beside this file (platform, accounts, money, chains, support,
 * admin and the dashboard's read), in the order they need each other.
 */
export function createServices(infra: Infra) {
  const { pool, config } = infra;
  // Every address check (request schemas included) follows BTC_NETWORK from here on.
  setBitcoinAddressNetwork(config.chains.bitcoinNetwork);
  const platform = createPlatform(infra);
  const accounts = createAccountServices(infra, platform);
  // Two people for every change of money or where it goes: each owning module registers its
  // kinds of change with this one service as it is built.
  const staffChanges = createStaffChanges({
    pool,
    audit: platform.audit,
    stepUp: accounts.stepUp,
    realtime: platform.realtime,
    outbox: platform.outbox,
  });
  const money = createMoneyServices(infra, platform, accounts);
  // Prometheus figures (/metrics) and the readiness probe; jobs report their runs to it.
  const metrics = createMetrics();
  const health = createHealth({
    pool,
    prices: money.prices,
    ledgerCheck: money.ledgerCheck,
    realtime: platform.realtime,
    metrics,
  });
  // Payout approval refuses a recent funder of the customer (the staff changes' 30-day rule).
  const chains = createChainServices(infra, platform, accounts, money, staffChanges);
  const support = createSupportServices(infra, platform, accounts);
  const admin = createAdminServices(infra, platform, accounts, money, chains, staffChanges);
  const dashboard = createDashboardServices(infra, platform, accounts, money);
  // Every service by its name, one flat set: routes and jobs take theirs from here.
  return {
    ...infra,
    ...platform,
    ...accounts,
    ...money,
    ...chains,
    ...support,
    ...admin,
    ...dashboard,
    staffChanges,
    metrics,
    health,
  };
}

export type Services = ReturnType<typeof createServices>;

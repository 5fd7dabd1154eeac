import { setBitcoinAddressNetwork } from '@coffer/shared';
import { createAccountServices } from './app-services-accounts';
import { createAdminServices, createSupportServices } from './app-services-admin';
import { createChainServices } from './app-services-chains';
import { createMoneyServices } from './app-services-money';
import { createPlatform, type Infra } from './app-services-platform';
import { createMetrics } from './lib/metrics';
import { createHealth } from './modules/health';

export type { Infra } from './app-services-platform';

/**
 * Wires repositories and services once; routes receive what they need from here. Each area
 * is built by its own function beside this file (platform, accounts, money, chains, support
 * and admin), in the order they need each other.
 */
export function createServices(infra: Infra) {
  const { pool, config } = infra;
  // Every address check (request schemas included) follows BTC_NETWORK from here on.
  setBitcoinAddressNetwork(config.chains.bitcoinNetwork);
  const platform = createPlatform(infra);
  const {
    files,
    outbox,
    fileSweep,
    users,
    limiter,
    signInDevices,
    listener,
    settings,
    sessions,
    audit,
    securityLog,
    realtime,
  } = platform;
  const accounts = createAccountServices(infra, platform);
  const { securityHold, phrases, auth, stepUp, twoFactor, passkeys, accountSecurity, firstRun } =
    accounts;
  const money = createMoneyServices(infra, platform, accounts);
  const {
    ledger,
    ledgerCheck,
    staking,
    prices,
    moneyControls,
    wallets,
    deposits,
    withdrawals,
    bank,
    history,
  } = money;
  // Prometheus figures (/metrics) and the readiness probe; jobs report their runs to it.
  const metrics = createMetrics();
  const health = createHealth({ pool, prices, ledgerCheck, realtime, metrics });
  const chains = createChainServices(infra, platform, accounts, money);
  const { chainAdapters, payouts, chainWatchers } = chains;
  const { kyc, chat } = createSupportServices(infra, platform);
  const { adminUsers, adminTransactions, adminWallets, adminSettings, adminAudit } =
    createAdminServices(infra, platform, accounts, money, chains);
  return {
    metrics,
    health,
    securityHold,
    securityLog,
    ...infra,
    listener,
    users,
    sessions,
    limiter,
    signInDevices,
    settings,
    phrases,
    auth,
    twoFactor,
    passkeys,
    accountSecurity,
    firstRun,
    stepUp,
    ledger,
    ledgerCheck,
    prices,
    staking,
    moneyControls,
    wallets,
    deposits,
    withdrawals,
    bank,
    history,
    audit,
    realtime,
    files,
    outbox,
    fileSweep,
    chainAdapters,
    chainWatchers,
    payouts,
    kyc,
    chat,
    adminUsers,
    adminTransactions,
    adminWallets,
    adminSettings,
    adminAudit,
  };
}

export type Services = ReturnType<typeof createServices>;

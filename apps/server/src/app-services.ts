import { setBitcoinAddressNetwork } from '@coffer/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './config';
import { createPool, type Db } from './db/client';
import type { Secrets } from './lib/crypto';
import { createDatabaseFileStore } from './lib/file-store';
import type { Mailer } from './lib/mailer';
import { createMetrics } from './lib/metrics';
import { createPgListener } from './lib/pg-listener';
import { createS3FileStore } from './lib/s3-file-store';
import { createAccountSecurityService } from './modules/account-security';
import { createAdminAuditService } from './modules/admin-audit';
import { createAdminSettingsService } from './modules/admin-settings';
import { createAdminTransactionsService } from './modules/admin-transactions';
import { createAdminUsersService } from './modules/admin-users';
import { createAdminWalletsService } from './modules/admin-wallets';
import { createAuditLog } from './modules/audit/audit.service';
import { createUsers } from './modules/auth';
import { createAuthService } from './modules/auth/auth.service';
import { createBankService } from './modules/bank/bank.service';
import { type ChainAdapter, createChainWatcher, TronAdapter } from './modules/chains';
import { createChainAdapters } from './modules/chains/adapters';
import { BitcoinAdapter } from './modules/chains/bitcoin-adapter';
import { EthereumAdapter } from './modules/chains/ethereum-adapter';
import { createChatService } from './modules/chat';
import { createDepositsService } from './modules/deposits/deposits.service';
import { createHealth } from './modules/health';
import { createHistoryService } from './modules/history/history.service';
import { createKycService } from './modules/kyc';
import { createLedger, createLedgerCheck } from './modules/ledger';
import { createMoneyControls } from './modules/money-controls/money-controls.service';
import { createFileSweep, createOutbox } from './modules/outbox';
import { createPasskeysService } from './modules/passkeys';
import { createPayoutSettlement, createPayoutsService } from './modules/payouts';
import { createPriceService } from './modules/prices/prices.service';
import { createSignInDevices } from './modules/rate-limit';
import { createRateLimiter } from './modules/rate-limit/rate-limiter';
import { createRealtimeHub } from './modules/realtime/realtime.hub';
import { createRecoveryPhraseService } from './modules/recovery-phrase/recovery-phrase.service';
import { createSecurityHold } from './modules/security-hold';
import { createSecurityLog } from './modules/security-log';
import { createSessions } from './modules/sessions';
import { withSettingsCache } from './modules/settings/settings.cache';
import { createStakingService } from './modules/staking/staking.service';
import { createStepUp } from './modules/step-up';
import { createTwoFactorService } from './modules/two-factor/two-factor.service';
import { createWalletsService } from './modules/wallets/wallets.service';
import { createWithdrawalsService } from './modules/withdrawals/withdrawals.service';

export type Infra = {
  config: Config;
  pool: pg.Pool;
  db: Db;
  secrets: Secrets;
  mailer: Mailer;
  log: Logger;
  /** "Now" for time-driven money rules (staking accrual and credits); tests inject one. */
  clock?: () => Date;
  /** The chains to watch instead of the configured ones (tests pass scripted chains). */
  chainAdapters?: ChainAdapter[];
};

/** Wires repositories and services once; routes receive what they need from here. */
export function createServices(infra: Infra) {
  const { pool, secrets, mailer, config } = infra;
  const clock = infra.clock ?? (() => new Date());
  // Every address check (request schemas included) follows BTC_NETWORK from here on.
  setBitcoinAddressNetwork(config.chains.bitcoinNetwork);
  // Private uploads (product.md S5): KYC documents and chat attachments.
  // Private files where every instance reads them: a bucket when STORAGE_URL names one,
  // else the database.
  const files = config.storage
    ? createS3FileStore(config.storage, secrets)
    : createDatabaseFileStore(pool, secrets);
  // Mails and file removals are queued in the transaction of the change that causes them
  // and carried out after its commit (docs/decisions/0011).
  const outbox = createOutbox({ pool, secrets, mailer, files, log: infra.log });
  const fileSweep = createFileSweep({ pool, files, log: infra.log });
  const users = createUsers(pool);
  // Its own few connections: counts are taken inside money transactions (see the limiter).
  const limiter = createRateLimiter(createPool(String(pool.options.connectionString ?? ''), 4));
  // Browsers an account signed in on before: their sign-ins are counted on their own.
  const signInDevices = createSignInDevices(secrets);
  // Not started here: the server starts it (main.ts); without it nothing is cached.
  const listener = createPgListener(String(pool.options.connectionString ?? ''), infra.log);
  const settings = withSettingsCache(pool, listener);
  // Session timeouts are app settings, read from the cache at every look-up.
  const sessions = createSessions(pool, settings);
  const audit = createAuditLog();
  // The account's security activity; modules record on their change's own transaction.
  const securityLog = createSecurityLog({ pool, audit, log: infra.log });
  const securityHold = createSecurityHold({
    pool,
    settings,
    outbox,
    audit,
    securityLog,
    // `stepUp` is made below (it needs passkeys, which need the hold).
    stepUp: { confirm: (...args) => stepUp.confirm(...args) },
    publicUrl: config.publicUrl,
  });
  const phrases = createRecoveryPhraseService({
    pool,
    secrets,
    limiter,
    securityLog,
  });
  const auth = createAuthService({
    pool,
    sessions,
    phrases,
    limiter,
    signInDevices,
    outbox,
    securityHold,
    securityLog,
    publicUrl: config.publicUrl,
  });
  // Step-up checks passkeys' answers, and passkeys asks for step-ups: `passkeys` is made below.
  const stepUp = createStepUp({
    secrets,
    limiter,
    acceptAssertion: (client, session, assertion) =>
      passkeys.acceptAssertion(client, session, assertion),
    totpRefusal: (session, client) => passkeys.totpRefusal(session, client),
  });
  const twoFactor = createTwoFactorService({
    pool,
    sessions,
    phrases,
    limiter,
    secrets,
    outbox,
    securityHold,
    stepUp,
    securityLog,
    // Admins may be held to passkeys (decision 0014); `passkeys` is made below.
    totpRefusal: (session) => passkeys.totpRefusal(session),
    publicUrl: config.publicUrl,
  });
  const passkeys = createPasskeysService({
    pool,
    sessions,
    limiter,
    outbox,
    settings,
    securityHold,
    stepUp,
    securityLog,
    publicUrl: config.publicUrl,
  });
  const accountSecurity = createAccountSecurityService({
    pool,
    limiter,
    secrets,
    outbox,
    securityLog,
    stepUp,
    securityHold,
    publicUrl: config.publicUrl,
  });
  // The ledger checkpoints staking accrual before every ETH balance change, and staking
  // credits its rewards through the ledger: each holds the other.
  // Every change is announced on the realtime hub, so the customer's screens refresh live.
  const ledger = createLedger({
    beforeBalanceChange: (client, wallet, before) =>
      staking.beforeBalanceChange(client, wallet, before),
    afterChange: (client, userIds) =>
      realtime.publishMany(
        client,
        userIds.map((userId) => ({ type: 'ledger.changed' as const, userId })),
      ),
  });
  const ledgerCheck = createLedgerCheck(pool, ledger);
  const staking = createStakingService({
    pool,
    ledger,
    clock,
    log: infra.log,
  });
  const prices = createPriceService({
    pool,
    priceFeedUrl: config.priceFeedUrl,
    fxFeedUrl: config.fxFeedUrl,
    log: infra.log,
  });
  const moneyControls = createMoneyControls({ pool, settings });
  const wallets = createWalletsService({ pool, prices });
  const deposits = createDepositsService({
    pool,
    ledger,
    prices,
    controls: moneyControls,
    chains: config.chains,
  });
  const withdrawals = createWithdrawalsService({
    pool,
    ledger,
    prices,
    controls: moneyControls,
    outbox,
    securityHold,
    stepUp,
    audit,
    publicUrl: config.publicUrl,
  });
  const bank = createBankService({
    pool,
    ledger,
    secrets,
    prices,
    controls: moneyControls,
    securityHold,
    stepUp,
  });
  const history = createHistoryService({ pool, settings, secrets });
  // Realtime events through PostgreSQL NOTIFY; it LISTENs on `listener` (started by the server).
  const realtime = createRealtimeHub({
    listener,
    pool,
    connectionString: String(pool.options.connectionString ?? ''),
    sessions,
    log: infra.log,
  });
  // Prometheus figures (/metrics) and the readiness probe; jobs report their runs to it.
  const metrics = createMetrics();
  const health = createHealth({ pool, prices, ledgerCheck, realtime, metrics });
  // One watcher per configured chain, each run by the holder of its job lock (jobs.ts).
  const chainAdapters = infra.chainAdapters ?? createChainAdapters(config);
  const bitcoinNode = chainAdapters.find((a) => a instanceof BitcoinAdapter) ?? null;
  const ethereumNode = chainAdapters.find((a) => a instanceof EthereumAdapter) ?? null;
  const tronNode = chainAdapters.find((a) => a instanceof TronAdapter) ?? null;
  // Payouts on chain: Coffer builds, the operator signs offline, the watcher settles.
  const payouts = createPayoutsService({
    pool,
    chains: config.chains,
    keyOrigin: config.chains.bitcoin?.keyOrigin ?? null,
    bitcoin: bitcoinNode,
    ethereum: ethereumNode,
    tron: tronNode,
    withdrawals,
    audit,
    outbox,
    stepUp,
    settings,
    log: infra.log,
  });
  const chainWatchers = chainAdapters.map((adapter) =>
    createChainWatcher({
      pool,
      adapter,
      ledger,
      prices,
      outbox,
      audit,
      settings,
      log: infra.log,
      publicUrl: config.publicUrl,
      onConfirmations: (client, userIds) =>
        realtime.publishMany(
          client,
          userIds.map((userId) => ({ type: 'ledger.changed' as const, userId })),
        ),
      // TRON only reads: its payouts are paid by hand and the watcher verifies the typed hash.
      ...(adapter instanceof BitcoinAdapter ||
      adapter instanceof EthereumAdapter ||
      adapter instanceof TronAdapter
        ? {
            payouts: {
              node: adapter,
              ...createPayoutSettlement({
                pool,
                chain: adapter.chain,
                node: adapter,
                sender:
                  adapter.chain === 'ethereum'
                    ? (payouts.payoutAddress?.toLowerCase() ?? null)
                    : null,
                withdrawals,
                audit,
                log: infra.log,
              }),
            },
          }
        : {}),
    }),
  );
  // Support: identity checks and the chat, each shared by the customer's and staff's routes.
  const kyc = createKycService({
    pool,
    files,
    audit,
    realtime,
    outbox,
    limiter,
    publicUrl: config.publicUrl,
  });
  const chat = createChatService({
    pool,
    files,
    realtime,
    audit,
    limiter,
    outbox,
    log: infra.log,
    publicUrl: config.publicUrl,
  });
  // The admin screens' services.
  const adminUsers = createAdminUsersService({
    pool,
    settings,
    prices,
    outbox,
    securityLog,
    securityHold,
    audit,
    limiter,
    phrases,
    stepUp,
    ledgerCheck,
    chainAdapters,
    publicUrl: config.publicUrl,
    clock,
  });
  const adminTransactions = createAdminTransactionsService({
    pool,
    ledger,
    audit,
    secrets,
    withdrawals,
    payouts,
    stepUp,
  });
  const adminWallets = createAdminWalletsService({ pool, ledger, prices, audit, stepUp });
  const adminSettings = createAdminSettingsService({
    pool,
    audit,
    stepUp,
    settings,
    prices,
    log: infra.log,
  });
  const adminAudit = createAdminAuditService({ pool, audit });
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

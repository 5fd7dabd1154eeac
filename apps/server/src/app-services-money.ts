import type { AccountServices } from './app-services-accounts';
import type { Infra, Platform } from './app-services-platform';
import { createBankService } from './modules/bank/bank.service';
import { createDepositsService } from './modules/deposits/deposits.service';
import { createHistoryService } from './modules/history/history.service';
import { createLedger, createLedgerCheck } from './modules/ledger';
import { createMoneyControls } from './modules/money-controls/money-controls.service';
import { createPriceService } from './modules/prices/prices.service';
import { createStakingService } from './modules/staking/staking.service';
import { createWalletsService } from './modules/wallets/wallets.service';
import { createWithdrawalsService } from './modules/withdrawals/withdrawals.service';

/**
 * Money: the ledger and its check, staking, prices, the money switches, wallets, deposits,
 * withdrawals, bank payouts and the history.
 */
export function createMoneyServices(
  infra: Infra,
  {
    clock,
    outbox,
    settings,
    realtime,
    audit,
  }: Pick<Platform, 'clock' | 'outbox' | 'settings' | 'realtime' | 'audit'>,
  { securityHold, stepUp }: Pick<AccountServices, 'securityHold' | 'stepUp'>,
) {
  const { pool, secrets, config } = infra;
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
    // Every instance's customers hear it (the hub's NOTIFY), and value their balances anew.
    onChange: () => realtime.publish(pool, { type: 'prices.changed' }),
  });
  const moneyControls = createMoneyControls({ pool, settings });
  const wallets = createWalletsService({ pool, prices });
  const deposits = createDepositsService({
    pool,
    ledger,
    prices,
    controls: moneyControls,
    chains: config.chains,
    outbox,
    audit,
    realtime,
    publicUrl: config.publicUrl,
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
  return {
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
  };
}

export type MoneyServices = ReturnType<typeof createMoneyServices>;

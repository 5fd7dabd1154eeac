import {
  bitcoinAddressNetwork,
  formatAmount,
  MONEY_MSG,
  parseAmount,
  type TMoneyStatus,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { SETTING_DEFAULTS } from '../settings';
import { moneyControlsRepository as repo } from './money-controls.repository';

// The texts live in shared, so the screens that know beforehand say the same.
export { MONEY_MSG };

/** The operator's money settings, read once per request. */
export type MoneySettings = {
  depositsEnabled: boolean;
  withdrawalsEnabled: boolean;
  maintenanceMode: boolean;
  /** USD cents a customer may withdraw in any 24 hours. */
  maxDailyWithdrawalCents: bigint;
  bankStatementDescriptor: string;
};

const defaultOf = (key: string) => SETTING_DEFAULTS.find((d) => d.key === key)?.value;

/**
 * A boolean setting. A missing row means the documented default; a value that is neither
 * 'true' nor 'false' means `unreadable`, the safe reading (money stops rather than flows).
 */
function flag(values: Map<string, string>, key: string, unreadable: boolean): boolean {
  const value = values.get(key) ?? defaultOf(key);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return unreadable;
}

/** The daily limit in cents; an unreadable value allows nothing rather than everything. */
function dailyLimitCents(values: Map<string, string>): bigint {
  const value = values.get('max_daily_withdrawal') ?? defaultOf('max_daily_withdrawal') ?? '0';
  try {
    return parseAmount(value, 2);
  } catch {
    return 0n;
  }
}

/** '$1,234.56' */
export function formatUsd(cents: bigint): string {
  return `$${formatAmount(cents < 0n ? 0n : cents, 2, { minFractionDigits: 2, grouping: true })}`;
}

const cents = (usd: string) => parseAmount(usd, 2);
const usdString = (c: bigint) => formatAmount(c < 0n ? 0n : c, 2, { minFractionDigits: 2 });

export function createMoneyControls(deps: {
  pool: pg.Pool;
  settings: { all(): Promise<Map<string, string>> };
}) {
  async function current(): Promise<MoneySettings> {
    const values = await deps.settings.all();
    return {
      depositsEnabled: flag(values, 'deposits_enabled', false),
      withdrawalsEnabled: flag(values, 'withdrawals_enabled', false),
      maintenanceMode: flag(values, 'maintenance_mode', true),
      maxDailyWithdrawalCents: dailyLimitCents(values),
      bankStatementDescriptor: values.get('bank_statement_descriptor') ?? '',
    };
  }

  return {
    current,

    /** Withdrawals and bank transfers: maintenance first, then the on/off switch. */
    assertCustomerPayoutsOpen(settings: MoneySettings): void {
      if (settings.maintenanceMode) throw new AppError('SERVICE_DISABLED', MONEY_MSG.maintenance);
      if (!settings.withdrawalsEnabled) {
        throw new AppError('SERVICE_DISABLED', MONEY_MSG.withdrawalsDisabled);
      }
    },

    /**
     * Refuses a withdrawal worth `thisUsd` when the customer's last 24 hours plus it would
     * pass the limit, saying how much is left. Call with the customer locked (lockCustomer)
     * so two requests cannot both fit into the same remainder.
     */
    async assertWithinDailyLimit(
      client: pg.PoolClient,
      settings: MoneySettings,
      userId: string,
      thisUsd: string,
    ): Promise<void> {
      const withdrawn = cents(await repo.withdrawnLastDayUsd(client, userId));
      const limit = settings.maxDailyWithdrawalCents;
      if (withdrawn + cents(thisUsd) <= limit) return;
      throw new AppError(
        'LIMIT_EXCEEDED',
        `This withdrawal would exceed your daily limit of ${formatUsd(limit)}. You can withdraw ${formatUsd(limit - withdrawn)} more today.`,
      );
    },

    lockCustomer: (client: pg.PoolClient, userId: string) => repo.lockCustomer(client, userId),

    /** GET /api/money/status for one customer. */
    async status(userId: string): Promise<TMoneyStatus> {
      const [settings, withdrawn] = await Promise.all([
        current(),
        repo.withdrawnLastDayUsd(deps.pool, userId),
      ]);
      const withdrawnCents = cents(withdrawn);
      return {
        depositsEnabled: settings.depositsEnabled,
        withdrawalsEnabled: settings.withdrawalsEnabled,
        maintenanceMode: settings.maintenanceMode,
        maxDailyWithdrawalUsd: usdString(settings.maxDailyWithdrawalCents),
        withdrawnTodayUsd: usdString(withdrawnCents),
        remainingTodayUsd: usdString(settings.maxDailyWithdrawalCents - withdrawnCents),
        bankStatementDescriptor: settings.bankStatementDescriptor,
        // The network the server's own address checks follow (set from BTC_NETWORK at
        // start), so the forms check addresses exactly as the server will.
        bitcoinNetwork: bitcoinAddressNetwork(),
      };
    },
  };
}

export type MoneyControls = ReturnType<typeof createMoneyControls>;

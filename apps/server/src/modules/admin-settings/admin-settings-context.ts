import type {
  TAppSetting,
  TAppSettingsResponse,
  TPendingChange,
  TPendingSettingChange,
  TSyncPrices,
} from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { PriceBook } from '../prices';
import { type SettingRow, settingsWrites } from '../settings';
import type { StaffChanges } from '../staff-changes';
import type { StepUp } from '../step-up';

/** The kind name of a setting's two-person change. */
export const SETTING_CHANGE = 'setting';

/** Who is acting, for the audit row. */
export type Actor = { userId: string; ip: string };

/**
 * What the parts of the admin settings service share, built once by
 * `createAdminSettingsService`: the audit log, the step-up, the two-person changes every
 * setting but a money stop goes through, the settings cache every save drops, and the
 * prices the wallet sync reads.
 */
export type AdminSettingsContext = {
  pool: pg.Pool;
  audit: AuditLog;
  stepUp: Pick<StepUp, 'confirm'>;
  changes: StaffChanges;
  settings: { invalidate(): void };
  prices: { current(): PriceBook; refresh(): Promise<PriceBook> };
  /** Staff without a passkey, by e-mail (passkeys' front door). */
  staffWithoutPasskey(db: TxClient): Promise<string[]>;
  log: Logger;
};

export const present = (r: SettingRow): TAppSetting => ({
  key: r.key,
  value: r.value,
  type: r.type,
  description: r.description,
  updatedAt: r.updatedAt.toISOString(),
});

/** A setting's pending change as the settings screen shows it: which key, which value. */
export function presentSettingChange(c: TPendingChange): TPendingSettingChange {
  const [key = '', value = ''] = Object.entries(c.after ?? {})[0] ?? [];
  return {
    id: c.id,
    key,
    value: String(value),
    proposedBy: c.proposedBy,
    proposedAt: c.proposedAt,
  };
}

/** Every setting, and the setting changes waiting for a second staff member. */
export async function listSettings(ctx: AdminSettingsContext): Promise<TAppSettingsResponse> {
  return {
    settings: (await settingsWrites.list(ctx.pool)).map(present),
    pending: (await ctx.changes.pending([SETTING_CHANGE])).map(presentSettingChange),
  };
}

export const syncPricesOf = (book: PriceBook): TSyncPrices => ({
  BTC: book.quotes.BTC.priceUsd,
  ETH: book.quotes.ETH.priceUsd,
  USDT: book.quotes['USDT-ERC20'].priceUsd,
});

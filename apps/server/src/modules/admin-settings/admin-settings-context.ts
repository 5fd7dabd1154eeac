import type {
  TAppSetting,
  TAppSettingsResponse,
  TPendingSettingChange,
  TStepUp,
  TSyncPrices,
} from '@coffer/shared';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { PriceBook } from '../prices';
import { type SettingRow, settingsWrites } from '../settings';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  adminSettingsRepository as repo,
  type SettingChangeRow,
} from './admin-settings.repository';

/** Who is acting, for the audit row. */
export type Actor = { userId: string; ip: string };

/** An admin changing settings: their session (for the step-up), where from, and the proof. */
export type SettingsRequest = { session: StepUpSubject; who: Client; stepUp: TStepUp | undefined };

/**
 * What the parts of the admin settings service share, built once by
 * `createAdminSettingsService`: the audit log, the step-up, the settings cache every save
 * drops, and the prices the wallet sync reads.
 */
export type AdminSettingsContext = {
  pool: pg.Pool;
  audit: AuditLog;
  stepUp: Pick<StepUp, 'confirm'>;
  settings: { invalidate(): void };
  prices: { current(): PriceBook; refresh(): Promise<PriceBook> };
  log: Logger;
};

export const present = (r: SettingRow): TAppSetting => ({
  key: r.key,
  value: r.value,
  type: r.type,
  description: r.description,
  updatedAt: r.updatedAt.toISOString(),
});

export const presentChange = (c: SettingChangeRow): TPendingSettingChange => ({
  id: c.id,
  key: c.setting_key,
  value: c.value,
  proposedBy: { id: c.proposed_by, email: c.proposer_email },
  proposedAt: c.proposed_at.toISOString(),
});

export const actorOf = (r: SettingsRequest): Actor => ({ userId: r.session.userId, ip: r.who.ip });

/** Every setting, and the changes waiting for a second admin. */
export async function listSettings(ctx: AdminSettingsContext): Promise<TAppSettingsResponse> {
  return {
    settings: (await settingsWrites.list(ctx.pool)).map(present),
    pending: (await repo.pendingChanges(ctx.pool)).map(presentChange),
  };
}

export const syncPricesOf = (book: PriceBook): TSyncPrices => ({
  BTC: book.quotes.BTC.priceUsd,
  ETH: book.quotes.ETH.priceUsd,
  USDT: book.quotes['USDT-ERC20'].priceUsd,
});

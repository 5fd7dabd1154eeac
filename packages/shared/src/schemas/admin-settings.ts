import { z } from 'zod';
import { SETTING_TYPES } from './admin-settings-rules';
import { ZStepUp } from './step-up';

/**
 * The settings screen's requests and answers, and the wallet price sync. Which settings
 * exist, their ranges and labels are in admin-settings-rules.ts; the check of a value
 * before it is stored in admin-settings-values.ts.
 */

export * from './admin-settings-rules';
export * from './admin-settings-values';

// ---------------------------------------------------------------- app settings

export const ZAppSetting = z.object({
  key: z.string(),
  value: z.string(),
  type: z.enum(SETTING_TYPES),
  description: z.string(),
  updatedAt: z.string(),
});
export type TAppSetting = z.infer<typeof ZAppSetting>;

/**
 * A risk setting's change proposed by one admin, waiting for another's approval (four
 * eyes). `value` is the proposed value; the setting's current one is in `settings`.
 */
export const ZPendingSettingChange = z.object({
  id: z.string(),
  key: z.string(),
  value: z.string(),
  proposedBy: z.object({ id: z.string(), email: z.string() }),
  proposedAt: z.string(),
});
export type TPendingSettingChange = z.infer<typeof ZPendingSettingChange>;

/** Every setting, and the changes waiting for a second admin (oldest first). */
export const ZAppSettingsResponse = z.object({
  settings: z.array(ZAppSetting),
  pending: z.array(ZPendingSettingChange),
});
export type TAppSettingsResponse = z.infer<typeof ZAppSettingsResponse>;

/** The changed settings only, key → new value (strings, as stored), with a fresh second factor. */
export const ZUpdateSettingsRequest = z.object({
  values: z
    .record(z.string().min(1).max(100), z.string())
    .refine((v) => Object.keys(v).length > 0, 'Change at least one setting before saving.')
    .refine((v) => Object.keys(v).length <= 100, 'Too many settings at once.'),
  stepUp: ZStepUp,
});
export type TUpdateSettingsRequest = z.infer<typeof ZUpdateSettingsRequest>;

/** Resetting to the defaults, and approving or rejecting a proposed change: a second factor. */
export const ZSettingsStepUpRequest = z.object({ stepUp: ZStepUp });
export type TSettingsStepUpRequest = z.infer<typeof ZSettingsStepUpRequest>;

/**
 * A save's answer: 200 when everything applied, 202 when some of it waits for another
 * admin. `changed` lists the keys applied now; `pending` the changes THIS request proposed
 * (the whole list awaiting approval is in GET's `pending`).
 */
export const ZUpdateSettingsResponse = z.object({
  settings: z.array(ZAppSetting),
  changed: z.array(z.string()),
  pending: z.array(ZPendingSettingChange),
});
export type TUpdateSettingsResponse = z.infer<typeof ZUpdateSettingsResponse>;

// ---------------------------------------------------------------- price sync

export const ZSyncPrices = z.object({ BTC: z.string(), ETH: z.string(), USDT: z.string() });
export type TSyncPrices = z.infer<typeof ZSyncPrices>;

/** sync-wallet-prices: success, message, error, prices {BTC, ETH, USDT}. */
export const ZPriceSyncResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  error: z.string().nullable(),
  /** The prices the wallets are now valued at (on failure: the prices still in use). */
  prices: ZSyncPrices,
  /** live: fetched just now; cached: the last good feed prices; fallback: catalogue prices. */
  source: z.enum(['live', 'cached', 'fallback']),
  pricesAt: z.string().nullable(),
  walletsUpdated: z.number().int(),
});
export type TPriceSyncResponse = z.infer<typeof ZPriceSyncResponse>;

export const ZPriceSyncStatus = z.object({
  lastSync: z
    .object({
      at: z.string(),
      actorEmail: z.string().nullable(),
      prices: ZSyncPrices,
      walletsUpdated: z.number().int(),
    })
    .nullable(),
  current: z.object({
    prices: ZSyncPrices,
    source: z.enum(['live', 'cached', 'fallback']),
    pricesAt: z.string().nullable(),
  }),
});
export type TPriceSyncStatus = z.infer<typeof ZPriceSyncStatus>;

export const SETTINGS_MSG = {
  updated: 'Settings updated successfully',
  reset: 'Settings reset to defaults',
  fetchFailed: 'Failed to fetch app settings',
  updateFailed: 'Failed to update settings',
  resetFailed: 'Failed to reset settings',
  syncDone: 'All wallet balances synced with current market prices',
  syncFailed: 'Failed to sync wallet prices',
  syncFailedFallback: 'Sync failed',
  proposed:
    'Awaiting another admin\u2019s approval: the change takes effect when a different admin approves it.',
  approved: 'Change approved and applied',
  rejected: 'Change rejected',
  approveFailed: 'Failed to approve the change',
  rejectFailed: 'Failed to reject the change',
  ownProposal:
    'Another admin must approve this change: the admin who proposed a change cannot approve it (they may withdraw it).',
  changeDecided: 'This change was already approved, rejected or replaced by a newer proposal.',
  changeNotFound: 'There is no proposed setting change with this id.',
  staffWithoutPasskey: (emails: readonly string[]) =>
    `Passkeys cannot be required yet: ${emails.join(', ')} ${emails.length === 1 ? 'has' : 'have'} no passkey and would be locked out. Each must add one first.`,
} as const;

export const ZSettingChangeIdParams = z.object({
  id: z.uuid({ error: SETTINGS_MSG.changeNotFound }),
});

import { z } from 'zod';
import { ZStepUp } from './step-up';

// ---------------------------------------------------------------- app settings

export const SETTING_TYPES = ['boolean', 'number', 'json', 'text'] as const;
export type TSettingType = (typeof SETTING_TYPES)[number];

/** The four sections of Global Configuration. */
export const SETTING_SECTIONS = [
  'Feature Controls',
  'API Configuration',
  'Limits & Security',
  'Other Settings',
] as const;
export type TSettingSection = (typeof SETTING_SECTIONS)[number];

export const API_PROVIDERS = ['coingecko', 'coinmarketcap'] as const;

/**
 * The staking rate's ceiling: 1% a day is already about 3,700% a year compounded. No real
 * ETH staking pays anything near it, so a larger figure is a slip of the decimal point
 * (the specification's own 0.65% a day is about 237% a year; product.md M2).
 */
export const MAX_STAKING_DAILY_RATE = '0.01';

/**
 * Session timeouts (docs/decisions/0013): idle minutes per kind of account and the
 * absolute lifetime in hours. Below the floors a person is signed out while reading a
 * page; above the ceilings a stolen or forgotten session lives for days.
 */
export const SESSION_TIMEOUT_DEFAULTS = {
  session_idle_minutes_customer: 30,
  session_idle_minutes_admin: 15,
  session_absolute_hours: 12,
} as const;
export const SESSION_IDLE_MINUTES = { min: 5, max: 1440 } as const;
export const SESSION_ABSOLUTE_HOURS = { min: 1, max: 168 } as const;

/**
 * Confirmations before a chain deposit is credited (the including block counts as
 * 1). The ceiling stays below the 200 recent blocks a watcher keeps, so any reorg that could
 * undo an uncredited deposit is seen.
 */
export const CONFIRMATION_DEFAULTS = {
  confirmations_btc: 3,
  confirmations_eth: 12,
  confirmations_tron: 19,
} as const;
export const CONFIRMATIONS_RANGE = { min: 1, max: 100 } as const;

/**
 * Payouts on chain: Coffer refuses to build a transaction whose fee is above the cap (a
 * node's fee estimate gone wild must not empty the operator's funds into fees), and asks
 * the Bitcoin node for a rate that confirms within the target.
 */
export const PAYOUT_FEE_DEFAULTS = {
  max_fee_rate_btc: 200,
  max_fee_per_gas_eth: 200,
  fee_target_blocks_btc: 6,
} as const;
export const MAX_FEE_RATE_BTC = { min: 1, max: 10_000 } as const;
export const MAX_FEE_PER_GAS_ETH = { min: 1, max: 10_000 } as const;
export const FEE_TARGET_BLOCKS_BTC = { min: 1, max: 1_008 } as const;

/**
 * Block explorer links in the customer's history: per chain, a URL template with
 * `{hash}` where the transaction hash goes; empty shows the hash without a link.
 */
export const EXPLORER_TX_URL_DEFAULTS = {
  explorer_tx_url_btc: 'https://mempool.space/tx/{hash}',
  explorer_tx_url_eth: 'https://etherscan.io/tx/{hash}',
  explorer_tx_url_tron: 'https://tronscan.org/#/transaction/{hash}',
} as const;
export type TExplorerSettingKey = keyof typeof EXPLORER_TX_URL_DEFAULTS;
export const EXPLORER_HASH_PLACEHOLDER = '{hash}';

/**
 * The security hold's length in hours. The floor: a hold shorter than a day lets whoever
 * used a stolen recovery phrase move money before the owner reads the hold's mail; the
 * ceiling: the security hold reads anything above it as unreadable.
 */
export const SECURITY_HOLD_HOURS = { min: 24, max: 720 } as const;

/**
 * Four eyes (docs/decisions/0024-four-eyes-on-risk-settings.md): a change to these only
 * takes effect when a second admin approves it. Each one decides how safe customers' money
 * is: how long a hold lasts, how much leaves a day, when a deposit counts, where a
 * customer is sent to check a transaction.
 */
export const APPROVAL_SETTINGS = [
  'security_hold_hours',
  'max_daily_withdrawal',
  'confirmations_btc',
  'confirmations_eth',
  'confirmations_tron',
  'explorer_tx_url_btc',
  'explorer_tx_url_eth',
  'explorer_tx_url_tron',
  'max_fee_rate_btc',
  'max_fee_per_gas_eth',
] as const;

/**
 * The money switches and the value that stops money: any one admin may pull the stop at
 * once (an emergency must not wait for a second person), but turning money back on is a
 * change a second admin approves.
 */
export const MONEY_STOPS: Record<string, string> = {
  withdrawals_enabled: 'false',
  deposits_enabled: 'false',
  maintenance_mode: 'true',
};

/** Whether setting `key` to `value` waits for a second admin's approval. */
export function needsApproval(key: string, value: string): boolean {
  if ((APPROVAL_SETTINGS as readonly string[]).includes(key)) return true;
  const stop = MONEY_STOPS[key];
  return stop !== undefined && value !== stop;
}

/** A whole number within [min, max] written plainly (no sign, no leading zero), or null. */
export function wholeNumberIn(value: string, range: { min: number; max: number }): number | null {
  if (!/^[1-9]\d{0,5}$/.test(value)) return null;
  const n = Number(value);
  return n >= range.min && n <= range.max ? n : null;
}

/** How each known setting is labelled and where the settings screen shows it. */
export const SETTING_META: Record<string, { label: string; section: TSettingSection }> = {
  deposits_enabled: { label: 'Deposits enabled', section: 'Feature Controls' },
  withdrawals_enabled: { label: 'Withdrawals enabled', section: 'Feature Controls' },
  maintenance_mode: { label: 'Maintenance mode', section: 'Feature Controls' },
  show_public_stats: { label: 'Show public statistics', section: 'Feature Controls' },
  api_provider: { label: 'Price data provider', section: 'API Configuration' },
  support_chat_url: { label: 'Support chat link', section: 'API Configuration' },
  max_daily_withdrawal: { label: 'Maximum daily withdrawal (USD)', section: 'Limits & Security' },
  security_hold_hours: { label: 'Security hold (hours)', section: 'Limits & Security' },
  admins_require_passkey: { label: 'Admins require a passkey', section: 'Limits & Security' },
  session_idle_minutes_customer: {
    label: 'Customer idle timeout (minutes)',
    section: 'Limits & Security',
  },
  session_idle_minutes_admin: {
    label: 'Admin idle timeout (minutes)',
    section: 'Limits & Security',
  },
  session_absolute_hours: { label: 'Session lifetime (hours)', section: 'Limits & Security' },
  confirmations_btc: { label: 'Bitcoin confirmations', section: 'Limits & Security' },
  confirmations_eth: { label: 'Ethereum confirmations', section: 'Limits & Security' },
  confirmations_tron: { label: 'TRON confirmations', section: 'Limits & Security' },
  max_fee_rate_btc: { label: 'Bitcoin payout fee cap (sat/vB)', section: 'Limits & Security' },
  max_fee_per_gas_eth: { label: 'Ethereum payout fee cap (gwei)', section: 'Limits & Security' },
  fee_target_blocks_btc: {
    label: 'Bitcoin payout fee target (blocks)',
    section: 'Limits & Security',
  },
  explorer_tx_url_btc: { label: 'Bitcoin explorer link', section: 'API Configuration' },
  explorer_tx_url_eth: { label: 'Ethereum explorer link', section: 'API Configuration' },
  explorer_tx_url_tron: { label: 'TRON explorer link', section: 'API Configuration' },
  staking_daily_rate: { label: 'Staking daily rate', section: 'Other Settings' },
  staking_program_start: { label: 'Staking program start', section: 'Other Settings' },
  bank_statement_descriptor: { label: 'Bank statement descriptor', section: 'Other Settings' },
};

export function settingLabel(key: string): string {
  return SETTING_META[key]?.label ?? key;
}

export function settingSection(key: string): TSettingSection {
  return SETTING_META[key]?.section ?? 'Other Settings';
}

const MAX_TEXT = 500;
const DESCRIPTOR_MAX = 100;
const URL_MAX = 300;
const USD_AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,18})?$/;
const RATE = /^\d{1,2}(\.\d{1,18})?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Compares two non-negative decimal strings exactly (no float). */
function compareDecimal(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x === y ? 0 : x < y ? -1 : 1;
}

/** An absolute http(s) address with a host and no spaces (the browser opens it as a link). */
const HTTP_URL =
  /^https?:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?([/?#][^\s]*)?$/i;

/** An http(s) address's scheme, host with port, and host name (shared code has no URL class). */
const ORIGIN = /^(https?):\/\/(([^/?#:]+)(?::\d+)?)/i;

function httpUrl(value: string): boolean {
  return HTTP_URL.test(value);
}

/**
 * Why an explorer link template cannot be stored, or null. https only, so a customer is
 * never sent over plain HTTP, except to this machine (a regtest explorer beside a local
 * node); `{hash}` exactly once, as a link with no hash or two would point at the wrong page.
 */
function explorerTemplateError(label: string, value: string): string | null {
  if (value === '') return null;
  if (value.length > URL_MAX) return `${label} must be at most ${URL_MAX} characters.`;
  const shape = `${label} must be an https:// address containing ${EXPLORER_HASH_PLACEHOLDER} once, e.g. ${EXPLORER_TX_URL_DEFAULTS.explorer_tx_url_btc}, or empty for no link.`;
  if (value.split(EXPLORER_HASH_PLACEHOLDER).length !== 2) return shape;
  // The placeholder stands in for a hash while the rest is checked as an address.
  const sample = value.replace(EXPLORER_HASH_PLACEHOLDER, 'hash');
  if (!httpUrl(sample)) return shape;
  const url = ORIGIN.exec(sample);
  const other = ORIGIN.exec(value.replace(EXPLORER_HASH_PLACEHOLDER, 'other'));
  if (!url || !other) return shape;
  // The hash goes in the path, query or fragment: in the host it would choose the site.
  if (url[2]?.toLowerCase() !== other[2]?.toLowerCase()) {
    return `${label} must have ${EXPLORER_HASH_PLACEHOLDER} after the site's address, e.g. ${EXPLORER_TX_URL_DEFAULTS.explorer_tx_url_btc}.`;
  }
  if (url[1]?.toLowerCase() === 'https') return null;
  const hostname = url[3]?.toLowerCase();
  const local = hostname === 'localhost' || hostname === '127.0.0.1';
  return local
    ? null
    : `${label} must start with https:// (http:// only for an explorer on localhost or 127.0.0.1).`;
}

/**
 * Why a value cannot be stored for a setting, or null when it can. The server and the
 * settings screen both use it, so they refuse the same values with the same words.
 */
export function settingValueError(key: string, type: TSettingType, value: string): string | null {
  const label = settingLabel(key);
  if (value.length > 10_000) return `${label} is too long.`;
  switch (key) {
    case 'max_daily_withdrawal':
      return USD_AMOUNT.test(value)
        ? null
        : `${label} must be an amount in US dollars of 0 or more, with at most 2 decimals (e.g. 10000).`;
    case 'security_hold_hours':
      return wholeNumberIn(value, SECURITY_HOLD_HOURS) === null
        ? `${label} must be a whole number of hours from ${SECURITY_HOLD_HOURS.min} to ${SECURITY_HOLD_HOURS.max}.`
        : null;
    case 'session_idle_minutes_customer':
    case 'session_idle_minutes_admin':
      return wholeNumberIn(value, SESSION_IDLE_MINUTES) === null
        ? `${label} must be a whole number of minutes from ${SESSION_IDLE_MINUTES.min} to ${SESSION_IDLE_MINUTES.max}.`
        : null;
    case 'session_absolute_hours':
      return wholeNumberIn(value, SESSION_ABSOLUTE_HOURS) === null
        ? `${label} must be a whole number of hours from ${SESSION_ABSOLUTE_HOURS.min} to ${SESSION_ABSOLUTE_HOURS.max}.`
        : null;
    case 'confirmations_btc':
    case 'confirmations_eth':
    case 'confirmations_tron':
      return wholeNumberIn(value, CONFIRMATIONS_RANGE) === null
        ? `${label} must be a whole number of blocks from ${CONFIRMATIONS_RANGE.min} to ${CONFIRMATIONS_RANGE.max}.`
        : null;
    case 'explorer_tx_url_btc':
    case 'explorer_tx_url_eth':
    case 'explorer_tx_url_tron':
      return explorerTemplateError(label, value);
    case 'max_fee_rate_btc':
      return wholeNumberIn(value, MAX_FEE_RATE_BTC) === null
        ? `${label} must be a whole number of sat/vB from ${MAX_FEE_RATE_BTC.min} to ${MAX_FEE_RATE_BTC.max}.`
        : null;
    case 'max_fee_per_gas_eth':
      return wholeNumberIn(value, MAX_FEE_PER_GAS_ETH) === null
        ? `${label} must be a whole number of gwei from ${MAX_FEE_PER_GAS_ETH.min} to ${MAX_FEE_PER_GAS_ETH.max}.`
        : null;
    case 'fee_target_blocks_btc':
      return wholeNumberIn(value, FEE_TARGET_BLOCKS_BTC) === null
        ? `${label} must be a whole number of blocks from ${FEE_TARGET_BLOCKS_BTC.min} to ${FEE_TARGET_BLOCKS_BTC.max}.`
        : null;
    case 'staking_daily_rate':
      return RATE.test(value) && compareDecimal(value, MAX_STAKING_DAILY_RATE) <= 0
        ? null
        : `${label} must be a daily rate between 0 and ${MAX_STAKING_DAILY_RATE} (1% a day), e.g. 0.0001 for 0.01%.`;
    case 'staking_program_start':
      return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
        ? null
        : `${label} must be an ISO date, e.g. 2025-07-10T00:00:00Z.`;
    case 'api_provider':
      return (API_PROVIDERS as readonly string[]).includes(value)
        ? null
        : `${label} must be one of: ${API_PROVIDERS.join(', ')}.`;
    case 'bank_statement_descriptor':
      if (value.trim() === '') return `${label} cannot be empty.`;
      return value.length > DESCRIPTOR_MAX
        ? `${label} must be at most ${DESCRIPTOR_MAX} characters.`
        : null;
    case 'support_chat_url':
      if (value === '') return null;
      if (value.length > URL_MAX) return `${label} must be at most ${URL_MAX} characters.`;
      return httpUrl(value) ? null : `${label} must be a web address starting with https://.`;
  }
  switch (type) {
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `${label} must be true or false.`;
    case 'number':
      return DECIMAL.test(value) ? null : `${label} must be a number.`;
    case 'json':
      try {
        JSON.parse(value);
        return null;
      } catch {
        return `${label} must be valid JSON.`;
      }
    case 'text':
      return value.length > MAX_TEXT ? `${label} must be at most ${MAX_TEXT} characters.` : null;
  }
}

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
} as const;

export const ZSettingChangeIdParams = z.object({
  id: z.uuid({ error: SETTINGS_MSG.changeNotFound }),
});

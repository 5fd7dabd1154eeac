/**
 * The app settings Coffer knows: their ranges and defaults where the code needs them, which
 * ones wait for a second admin (four eyes), and how the settings screen labels and groups
 * them.
 */

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
 * The money switches and the value that stops money: any one admin may pull the stop at
 * once (an emergency must not wait for a second person), but turning money back on is a
 * change a second admin approves.
 */
export const MONEY_STOPS: Record<string, string> = {
  withdrawals_enabled: 'false',
  deposits_enabled: 'false',
  maintenance_mode: 'true',
};

/**
 * How long staff's closed support conversations are kept, in days; 0 keeps them for ever.
 * The ceiling is ten years. Shortening it removes customers' words, so, like every setting
 * but a money stop, a change waits for a second person.
 */
export const CHAT_RETENTION_DAYS = { min: 0, max: 3650 } as const;

/**
 * How long a payout completed by a typed hash waits for the chain to show that hash before
 * it returns to approved (with an alert), in whole hours. The floor leaves a slow block or a
 * node catching up time to show it; the ceiling is 30 days, past which a hash nobody mined
 * is not coming.
 */
export const TYPED_HASH_EXPIRY_HOURS = { min: 1, max: 720, default: 24 } as const;

/**
 * Whether setting `key` to `value` waits for a second staff member's approval: every
 * change does (decision 0036), but for pulling a money stop, which applies at once.
 */
export function needsApproval(key: string, value: string): boolean {
  return MONEY_STOPS[key] !== value;
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
  security_contact: { label: 'Security contact', section: 'Limits & Security' },
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
  chat_retention_days: { label: 'Chat retention (days)', section: 'Limits & Security' },
  typed_hash_expiry_hours: {
    label: 'Typed payout hash expiry (hours)',
    section: 'Limits & Security',
  },
};

export function settingLabel(key: string): string {
  return SETTING_META[key]?.label ?? key;
}

export function settingSection(key: string): TSettingSection {
  return SETTING_META[key]?.section ?? 'Other Settings';
}

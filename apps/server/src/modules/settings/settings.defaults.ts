import {
  CONFIRMATION_DEFAULTS,
  DEFAULT_STAKING_DAILY_RATE,
  DEFAULT_STAKING_PROGRAM_START,
  EXPLORER_TX_URL_DEFAULTS,
  PAYOUT_FEE_DEFAULTS,
  SESSION_TIMEOUT_DEFAULTS,
  TYPED_HASH_EXPIRY_HOURS,
} from '@coffer/shared';

export type SettingType = 'boolean' | 'number' | 'json' | 'text';
export type SettingDefault = { key: string; value: string; type: SettingType; description: string };

/** The settings' defaults, Coffer's own keys included (product.md M2, M4, M8). */
export const SETTING_DEFAULTS: SettingDefault[] = [
  {
    key: 'deposits_enabled',
    value: 'true',
    type: 'boolean',
    description: 'Show deposit addresses to customers',
  },
  {
    key: 'withdrawals_enabled',
    value: 'true',
    type: 'boolean',
    description: 'Accept new withdrawals and bank transfers',
  },
  {
    key: 'maintenance_mode',
    value: 'false',
    type: 'boolean',
    description: 'Refuse customer money actions',
  },
  {
    key: 'api_provider',
    value: 'coingecko',
    type: 'text',
    description: 'Price data provider (coingecko or coinmarketcap)',
  },
  {
    key: 'security_hold_hours',
    value: '48',
    type: 'number',
    description:
      'Hours payouts, bank details and 2FA changes wait after the recovery phrase is used or staff remove a second factor',
  },
  {
    key: 'max_daily_withdrawal',
    value: '10000',
    type: 'number',
    description: 'Per customer, USD, rolling 24 hours',
  },
  {
    key: 'staking_daily_rate',
    value: DEFAULT_STAKING_DAILY_RATE,
    type: 'number',
    description: 'ETH staking reward per day (0.0001 = 0.01%)',
  },
  {
    key: 'staking_program_start',
    value: DEFAULT_STAKING_PROGRAM_START,
    type: 'text',
    description: 'When the staking program started (ISO date)',
  },
  {
    key: 'bank_statement_descriptor',
    value: 'COFFER CUSTODY',
    type: 'text',
    description: 'Name on customers\u2019 bank statements for transfers',
  },
  {
    key: 'support_chat_url',
    value: '',
    type: 'text',
    description: 'External support messaging link (empty hides it)',
  },
  {
    key: 'security_contact',
    value: '',
    type: 'text',
    description:
      'Where security researchers report a problem, published in /.well-known/security.txt: an e-mail address or an https:// page (empty: no security.txt)',
  },
  {
    key: 'chat_retention_days',
    value: '0',
    type: 'number',
    description:
      'Days a support conversation staff closed is kept before the retention job removes its messages and files (0: for ever)',
  },
  {
    key: 'show_public_stats',
    value: 'true',
    type: 'boolean',
    description: 'Show live figures on the public pages',
  },
  {
    key: 'admins_require_passkey',
    value: 'false',
    type: 'boolean',
    description: 'Admins pass 2FA with a passkey only (authenticator codes refused)',
  },
  {
    key: 'session_idle_minutes_customer',
    value: String(SESSION_TIMEOUT_DEFAULTS.session_idle_minutes_customer),
    type: 'number',
    description: 'A customer is signed out after this many minutes without activity (5 to 1440)',
  },
  {
    key: 'session_idle_minutes_admin',
    value: String(SESSION_TIMEOUT_DEFAULTS.session_idle_minutes_admin),
    type: 'number',
    description: 'An admin is signed out after this many minutes without activity (5 to 1440)',
  },
  {
    key: 'session_absolute_hours',
    value: String(SESSION_TIMEOUT_DEFAULTS.session_absolute_hours),
    type: 'number',
    description: 'Every session ends this many hours after sign-in, active or not (1 to 168)',
  },
  {
    key: 'confirmations_btc',
    value: String(CONFIRMATION_DEFAULTS.confirmations_btc),
    type: 'number',
    description:
      'Bitcoin blocks (the including one counts as 1) before a deposit is credited (1 to 100)',
  },
  {
    key: 'confirmations_eth',
    value: String(CONFIRMATION_DEFAULTS.confirmations_eth),
    type: 'number',
    description:
      'Ethereum blocks (the including one counts as 1) before a deposit is credited (1 to 100)',
  },
  {
    key: 'confirmations_tron',
    value: String(CONFIRMATION_DEFAULTS.confirmations_tron),
    type: 'number',
    description:
      'TRON blocks (the including one counts as 1) before a deposit is credited (1 to 100)',
  },
  {
    key: 'max_fee_rate_btc',
    value: String(PAYOUT_FEE_DEFAULTS.max_fee_rate_btc),
    type: 'number',
    description:
      'Coffer refuses to build a Bitcoin payout batch whose fee rate is above this many sat/vB',
  },
  {
    key: 'max_fee_per_gas_eth',
    value: String(PAYOUT_FEE_DEFAULTS.max_fee_per_gas_eth),
    type: 'number',
    description:
      'Coffer refuses to build an Ethereum payout whose max fee per gas is above this many gwei',
  },
  {
    key: 'fee_target_blocks_btc',
    value: String(PAYOUT_FEE_DEFAULTS.fee_target_blocks_btc),
    type: 'number',
    description: 'The Bitcoin node is asked for a fee rate that confirms within this many blocks',
  },
  {
    key: 'typed_hash_expiry_hours',
    value: String(TYPED_HASH_EXPIRY_HOURS.default),
    type: 'number',
    description:
      'Hours a payout completed by a typed hash waits for the chain to show it before it returns to approved, with an alert (1 to 720)',
  },
  {
    key: 'explorer_tx_url_btc',
    value: EXPLORER_TX_URL_DEFAULTS.explorer_tx_url_btc,
    type: 'text',
    description:
      'Bitcoin block explorer link in customer history: https:// address with {hash} for the transaction hash (empty: no link)',
  },
  {
    key: 'explorer_tx_url_eth',
    value: EXPLORER_TX_URL_DEFAULTS.explorer_tx_url_eth,
    type: 'text',
    description:
      'Ethereum (ETH, USDT ERC-20) block explorer link: https:// address with {hash} for the transaction hash (empty: no link)',
  },
  {
    key: 'explorer_tx_url_tron',
    value: EXPLORER_TX_URL_DEFAULTS.explorer_tx_url_tron,
    type: 'text',
    description:
      'TRON (USDT TRC-20) block explorer link: https:// address with {hash} for the transaction hash (empty: no link)',
  },
];

/**
 * One short line per setting, in plain words, under its label on the settings screen: what
 * changing it does. Staff never need the setting's key or the server's own description.
 */
export const SETTING_HELP: Readonly<Record<string, string>> = {
  deposits_enabled: 'When off, customers are shown no deposit addresses.',
  withdrawals_enabled: 'When off, customers cannot ask for withdrawals or bank transfers.',
  maintenance_mode:
    'When on, customers cannot move money; they can still sign in and see their balances.',
  show_public_stats: 'Shows the number of customers and the staking figures on the public pages.',
  api_provider:
    'Which price service the operator uses. Recorded only: prices come from the price feed the server is configured with.',
  support_chat_url:
    'A link to an outside chat service, offered to customers beside Support. Empty hides it.',
  security_contact:
    'Where security researchers report a problem: an e-mail address or an https:// page. Empty publishes none.',
  max_daily_withdrawal:
    'The most one customer can withdraw in any 24 hours, valued in US dollars. 0 allows none.',
  security_hold_hours:
    'How long payouts, bank detail changes and 2FA changes wait after a recovery phrase is used or staff remove a second factor.',
  admins_require_passkey:
    'Admins must pass two-factor authentication with a passkey; their authenticator codes are refused.',
  session_idle_minutes_customer:
    'A customer is signed out after this many minutes without activity (5 to 1,440).',
  session_idle_minutes_admin:
    'An admin is signed out after this many minutes without activity (5 to 1,440).',
  session_absolute_hours:
    'Every session ends this many hours after sign-in, active or not (1 to 168).',
  confirmations_btc:
    'A Bitcoin deposit is credited once this many blocks hold it: 1 credits it in its first block (1 to 100).',
  confirmations_eth:
    'An Ethereum deposit (ETH or USDT ERC-20) is credited once this many blocks hold it: 1 credits it in its first block (1 to 100).',
  confirmations_tron:
    'A TRON deposit (USDT TRC-20) is credited once this many blocks hold it: 1 credits it in its first block (1 to 100).',
  max_fee_rate_btc:
    'Coffer builds no Bitcoin payout batch that pays a higher fee than this, in satoshis per virtual byte.',
  max_fee_per_gas_eth:
    'Coffer builds no Ethereum payout that may pay more than this for each unit of gas, in gwei.',
  fee_target_blocks_btc:
    'Bitcoin payouts pay the fee the node expects to be confirmed within this many blocks (about 10 minutes each).',
  explorer_tx_url_btc:
    'Where a Bitcoin transaction in a customer’s history links to, with {hash} where its id goes. Empty shows no link.',
  explorer_tx_url_eth:
    'Where an Ethereum transaction (ETH, USDT ERC-20) in a customer’s history links to, with {hash} where its id goes. Empty shows no link.',
  explorer_tx_url_tron:
    'Where a TRON transaction (USDT TRC-20) in a customer’s history links to, with {hash} where its id goes. Empty shows no link.',
  staking_daily_rate: 'The share of their ETH customers earn each day: 0.0001 is 0.01% a day.',
  staking_program_start:
    'When the staking program began, as a date and time in UTC, e.g. 2025-07-10T00:00:00Z.',
  bank_statement_descriptor:
    'The name customers see on their bank statement for a transfer from Coffer.',
  chat_retention_days:
    'Closed support conversations are removed, files and all, this many days after closing. 0 keeps them for ever.',
  typed_hash_expiry_hours:
    'A payout completed by a typed hash is approved again, with an alert, if the chain has not shown it within this many hours (1 to 720).',
};

/** The help line of a setting, or null for one this build does not know. */
export function settingHelp(key: string): string | null {
  return Object.hasOwn(SETTING_HELP, key) ? (SETTING_HELP[key] ?? null) : null;
}

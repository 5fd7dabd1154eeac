import {
  API_PROVIDERS,
  CHAT_RETENTION_DAYS,
  CONFIRMATIONS_RANGE,
  EXPLORER_HASH_PLACEHOLDER,
  EXPLORER_TX_URL_DEFAULTS,
  FEE_TARGET_BLOCKS_BTC,
  MAX_FEE_PER_GAS_ETH,
  MAX_FEE_RATE_BTC,
  MAX_STAKING_DAILY_RATE,
  SECURITY_HOLD_HOURS,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  settingLabel,
  type TSettingType,
  TYPED_HASH_EXPIRY_HOURS,
  wholeNumberIn,
} from './admin-settings-rules';

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

/** An e-mail address as security.txt's `Contact: mailto:` gives it: no spaces, one @. */
const CONTACT_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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
    case 'typed_hash_expiry_hours':
      return wholeNumberIn(value, TYPED_HASH_EXPIRY_HOURS) === null
        ? `${label} must be a whole number of hours from ${TYPED_HASH_EXPIRY_HOURS.min} to ${TYPED_HASH_EXPIRY_HOURS.max}.`
        : null;
    case 'chat_retention_days':
      return /^(0|[1-9]\d{0,3})$/.test(value) && Number(value) <= CHAT_RETENTION_DAYS.max
        ? null
        : `${label} must be a whole number of days from ${CHAT_RETENTION_DAYS.min} (keep for ever) to ${CHAT_RETENTION_DAYS.max}.`;
    case 'bank_statement_descriptor':
      if (value.trim() === '') return `${label} cannot be empty.`;
      return value.length > DESCRIPTOR_MAX
        ? `${label} must be at most ${DESCRIPTOR_MAX} characters.`
        : null;
    case 'support_chat_url':
      if (value === '') return null;
      if (value.length > URL_MAX) return `${label} must be at most ${URL_MAX} characters.`;
      return httpUrl(value) ? null : `${label} must be a web address starting with https://.`;
    case 'security_contact':
      if (value === '') return null;
      if (value.length > URL_MAX) return `${label} must be at most ${URL_MAX} characters.`;
      return CONTACT_EMAIL.test(value) || (/^https:\/\//i.test(value) && httpUrl(value))
        ? null
        : `${label} must be an e-mail address or a web address starting with https://, or empty for none.`;
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

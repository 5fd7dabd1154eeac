import {
  assetById,
  EXPLORER_HASH_PLACEHOLDER,
  EXPLORER_TX_URL_DEFAULTS,
  settingValueError,
  type TAssetNetwork,
  type TExplorerSettingKey,
  type TTransaction,
} from '@coffer/shared';

/** Which explorer setting an asset's network reads: the chain its transactions are on. */
const SETTING_OF_NETWORK: Record<TAssetNetwork, TExplorerSettingKey> = {
  bitcoin: 'explorer_tx_url_btc',
  ethereum: 'explorer_tx_url_eth',
  erc20: 'explorer_tx_url_eth',
  trc20: 'explorer_tx_url_tron',
};

/**
 * Whether each template the settings have held passes the settings screen's check: a history
 * page links up to 25 rows with the same few templates, and the check parses the address.
 * Kept for the last few templates only (an operator edits them rarely).
 */
const templateChecks = new Map<string, boolean>();

function usable(key: TExplorerSettingKey, template: string): boolean {
  const id = `${key} ${template}`;
  let ok = templateChecks.get(id);
  if (ok === undefined) {
    ok = settingValueError(key, 'text', template) === null;
    if (templateChecks.size >= 16) templateChecks.clear();
    templateChecks.set(id, ok);
  }
  return ok;
}

/**
 * The block explorer page of a transaction hash, from the operator's template, or null for
 * no link. The hash is URL-encoded, so whatever characters a hash holds it stays one value
 * in the path or query and cannot point the link elsewhere. A template that would not pass
 * the settings screen's check (written to the database by hand) gives no link rather than a
 * bad one.
 */
export function explorerTxUrl(
  key: TExplorerSettingKey,
  template: string,
  hash: string,
): string | null {
  if (template === '' || hash === '' || !usable(key, template)) {
    return null;
  }
  return template.replace(EXPLORER_HASH_PLACEHOLDER, encodeURIComponent(hash));
}

/**
 * The link a history row shows for its chain hash: deposits and withdrawals that happened or
 * are on their way (a failed or rejected one may never have reached the chain), by the
 * asset's chain (BTC: Bitcoin; ETH and USDT ERC-20: Ethereum; USDT TRC-20: TRON). `settings`
 * is the app settings; a missing row reads as the default.
 */
export function explorerLinkOf(
  settings: ReadonlyMap<string, string>,
  tx: Pick<TTransaction, 'type' | 'status' | 'assetId' | 'transactionHash'>,
): string | null {
  if (tx.type !== 'deposit' && tx.type !== 'withdrawal') return null;
  if (tx.status === 'failed' || !tx.transactionHash) return null;
  const asset = assetById(tx.assetId);
  if (!asset) return null;
  const key = SETTING_OF_NETWORK[asset.network];
  const template = settings.get(key) ?? EXPLORER_TX_URL_DEFAULTS[key];
  return explorerTxUrl(key, template, tx.transactionHash);
}

/** Chain watching (docs/decisions/0021): the front door of this module. */

export { BitcoinAdapter } from './bitcoin-adapter';
export type {
  BlockRef,
  ChainAdapter,
  ChainName,
  ChainTransaction,
  PayoutNode,
  PayoutWatch,
  SeenTransfer,
} from './chain-adapter';
export { CONFIRMATIONS_SETTING, chainOfAsset } from './chain-assets';
export {
  type BitcoinNetwork,
  type ChainConfig,
  type ChainConfigs,
  configuredChains,
  loadChainConfig,
  verifyChainConfig,
} from './chain-config';
export { CONFIRMATIONS_SQL, chainDepositsRepository } from './chain-deposits.repository';
export { chainProblems } from './chain-status';
export {
  type ChainWatcher,
  createChainWatcher,
  KEEP_BLOCKS,
  type TickResult,
} from './chain-watcher';
export { adminChainsRoutes, type TChainsResponse, ZChainsResponse } from './chains.routes';
export {
  BITCOIN_HRP,
  bitcoinAddressOfScript,
  bitcoinP2wpkh,
  bitcoinScriptOf,
  type DerivedAddress,
  derive,
  ethereumAddressOf,
  ethereumMatchKeyOf,
  parseAccountKey,
  publicKeyAtChain,
  tronAddressFromHex,
  tronMatchKeyOf,
} from './derive';
export { EthereumAdapter } from './ethereum-adapter';
export { type KeyOrigin, parseKeyOrigin } from './key-origin';
export { TronAdapter } from './tron-adapter';

import type { ChainAdapter } from './chain-adapter';
import type { ChainConfigs } from './chain-config';
import { EthereumAdapter } from './ethereum-adapter';

/**
 * The adapters of the chains the operator configured, one per chain (docs/decisions/0021):
 * each one's watcher runs as the exclusive job `chain-<name>` (jobs.ts). Each chain's
 * adapter constructor is added here from its configuration; a chain with none keeps
 * today's behaviour (staff-entered addresses, manual credits).
 */
export function createChainAdapters(config: { chains: ChainConfigs }): ChainAdapter[] {
  const adapters: ChainAdapter[] = [];
  const { ethereum } = config.chains;
  if (ethereum) {
    adapters.push(
      new EthereumAdapter({ rpcUrl: ethereum.rpcUrl, usdtContract: ethereum.usdtContract }),
    );
  }
  return adapters;
}

import { BitcoinAdapter } from './bitcoin-adapter';
import type { ChainAdapter } from './chain-adapter';
import type { ChainConfigs } from './chain-config';
import { EthereumAdapter } from './ethereum-adapter';
import { TronAdapter } from './tron-adapter';

/**
 * The adapters of the chains the operator configured, one per chain (docs/decisions/0021):
 * each one's watcher runs as the exclusive job `chain-<name>` (jobs.ts). Each chain's
 * adapter constructor is added here from its configuration; a chain with none keeps
 * today's behaviour (staff-entered addresses, manual credits).
 */
export function createChainAdapters(config: { chains: ChainConfigs }): ChainAdapter[] {
  const adapters: ChainAdapter[] = [];
  const { bitcoin, ethereum, tron } = config.chains;
  if (bitcoin) {
    adapters.push(new BitcoinAdapter({ rpcUrl: bitcoin.rpcUrl, network: bitcoin.network }));
  }
  if (ethereum) {
    adapters.push(
      new EthereumAdapter({ rpcUrl: ethereum.rpcUrl, usdtContract: ethereum.usdtContract }),
    );
  }
  if (tron) {
    adapters.push(
      new TronAdapter({
        apiUrl: tron.apiUrl,
        usdtContract: tron.usdtContract,
        ...(tron.apiKey ? { apiKey: tron.apiKey } : {}),
      }),
    );
  }
  return adapters;
}

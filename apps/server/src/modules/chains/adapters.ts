import type { ChainAdapter } from './chain-adapter';

/**
 * The adapters of the chains the operator configured, one per chain (docs/decisions/0021):
 * each one's watcher runs as the exclusive job `chain-<name>` (jobs.ts). Each chain's
 * adapter constructor is added here from its configuration; a chain with none keeps
 * today's behaviour (staff-entered addresses, manual credits).
 */
export function createChainAdapters(_config: unknown): ChainAdapter[] {
  return [];
}

import type pg from 'pg';
import type { ChainAdapter, ChainName } from './chain-adapter';
import { CONFIRMATIONS_SETTING, symbolNetworksOf } from './chain-watcher';
import { chainsRepository } from './chains.repository';

export type ChainStatus = {
  chain: ChainName;
  /** The node's tip as last seen, and the last block the watcher processed. */
  nodeTip: number | null;
  height: number | null;
  /** Blocks the watcher is behind the node. */
  lag: number | null;
  lastBlockAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** The watcher's failures in the last hour. */
  errorsLastHour: number;
  watchedAddresses: number;
  /** Deposits seen and not yet credited, and credited ones that left the chain (for staff). */
  confirming: number;
  reversedOnChain: number;
  requiredConfirmations: number | null;
};

/** How each chain's watcher stands, for `chain-status` and the Chains screen. */
export async function chainStatus(
  pool: pg.Pool,
  adapters: readonly Pick<ChainAdapter, 'chain' | 'matchKeyOf' | 'assets'>[],
): Promise<ChainStatus[]> {
  const out: ChainStatus[] = [];
  for (const adapter of adapters) {
    const chain = adapter.chain;
    const { rows: cursors } = await pool.query(
      `SELECT height, node_tip, last_block_at, last_error, last_error_at
         FROM chain_cursors WHERE chain = $1`,
      [chain],
    );
    const c = cursors[0];
    const { rows: counts } = await pool.query<{
      confirming: number;
      reversed: number;
      errors: number;
    }>(
      `SELECT count(*) FILTER (WHERE status = 'confirming')::int AS confirming,
              count(*) FILTER (WHERE status = 'reversed-on-chain')::int AS reversed,
              (SELECT count(*)::int FROM chain_watch_errors e
                WHERE e.chain = $1 AND e.at > now() - interval '1 hour') AS errors
         FROM chain_deposits WHERE chain = $1`,
      [chain],
    );
    const addresses = await chainsRepository.watchedAddresses(
      pool,
      symbolNetworksOf(adapter.assets),
    );
    const watched = new Set(
      addresses.map((a) => adapter.matchKeyOf(a.address)).filter((k) => k !== null),
    );
    const { rows: setting } = await pool.query<{ setting_value: string }>(
      'SELECT setting_value FROM app_settings WHERE setting_key = $1',
      [CONFIRMATIONS_SETTING[chain]],
    );
    const height = c ? Number(c.height) : null;
    const nodeTip = c?.node_tip == null ? null : Number(c.node_tip);
    out.push({
      chain,
      nodeTip,
      height,
      lag: height !== null && nodeTip !== null ? Math.max(0, nodeTip - height) : null,
      lastBlockAt: c?.last_block_at ?? null,
      lastError: c?.last_error ?? null,
      lastErrorAt: c?.last_error_at ?? null,
      errorsLastHour: counts[0]?.errors ?? 0,
      watchedAddresses: watched.size,
      confirming: counts[0]?.confirming ?? 0,
      reversedOnChain: counts[0]?.reversed ?? 0,
      requiredConfirmations: setting[0] ? Number(setting[0].setting_value) : null,
    });
  }
  return out;
}

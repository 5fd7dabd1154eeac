import type { ColumnsOf } from '@server/db/rows';
import type { bankTransfers, payouts } from '@server/db/schema/index';
import type pg from 'pg';
import { CONFIRMATIONS_SQL } from '../chains';

/** A bank payout's account as stored: encrypted at rest. */
export type EncryptedAccount = ColumnsOf<
  typeof bankTransfers,
  'transaction_id' | 'account_name_encrypted' | 'account_number_encrypted' | 'bsb_number_encrypted'
>;

/**
 * What a page's rows add beside the ledger: confirmations of chain deposits and of
 * withdrawals on their way, the approvals that put a payout in staff's hands, and where a
 * bank payout goes. One statement each, for the page's ids only.
 */
export const historyDetailsRepository = {
  /**
   * The chain deposits still confirming among these ledger rows: their
   * confirmations and the chain's setting they are credited at, by ledger row id.
   */
  async confirmingDeposits(
    pool: pg.Pool,
    transactionIds: string[],
  ): Promise<Map<string, { current: number; required: number }>> {
    if (transactionIds.length === 0) return new Map();
    const { rows } = await pool.query<{ id: string; current: number; required: string | null }>(
      `SELECT d.transaction_id AS id, ${CONFIRMATIONS_SQL} AS current, s.setting_value AS required
         FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain)
         LEFT JOIN app_settings s ON s.setting_key = CASE d.chain
           WHEN 'bitcoin' THEN 'confirmations_btc' WHEN 'ethereum' THEN 'confirmations_eth'
           WHEN 'tron' THEN 'confirmations_tron' END
        WHERE d.transaction_id = ANY($1::uuid[]) AND d.status = 'confirming'`,
      [transactionIds],
    );
    const out = new Map<string, { current: number; required: number }>();
    for (const r of rows) {
      const required = Number(r.required);
      if (Number.isInteger(required) && required >= 1)
        out.set(r.id, { current: Math.min(r.current, required), required });
    }
    return out;
  },

  /**
   * Withdrawals sent on chain among these ledger rows: the transaction that pays each, its
   * confirmations so far and the chain's setting it completes at ("Sent — confirming").
   */
  async sentPayouts(
    pool: pg.Pool,
    transactionIds: string[],
  ): Promise<Map<string, { txHash: string; current: number; required: number }>> {
    if (transactionIds.length === 0) return new Map();
    const { rows } = await pool.query<{
      id: string;
      tx_hash: string;
      current: number | null;
      required: string | null;
    }>(
      `SELECT p.transaction_id AS id, p.tx_hash,
              CASE WHEN p.block_height IS NULL THEN 0
                   ELSE greatest(0, c.height - p.block_height + 1) END::int AS current,
              s.setting_value AS required
         FROM payouts p LEFT JOIN chain_cursors c USING (chain)
         LEFT JOIN app_settings s ON s.setting_key = CASE p.chain
           WHEN 'bitcoin' THEN 'confirmations_btc' WHEN 'ethereum' THEN 'confirmations_eth'
           WHEN 'tron' THEN 'confirmations_tron' END
        WHERE p.transaction_id = ANY($1::uuid[]) AND p.tx_hash IS NOT NULL
          AND p.state IN ('broadcast', 'confirming', 'manual')`,
      [transactionIds],
    );
    const out = new Map<string, { txHash: string; current: number; required: number }>();
    for (const r of rows) {
      const required = Number(r.required);
      if (Number.isInteger(required) && required >= 1)
        out.set(r.id, {
          txHash: r.tx_hash,
          current: Math.min(r.current ?? 0, required),
          required,
        });
    }
    return out;
  },

  /**
   * Which of these withdrawals staff approved for payment (a row in payouts, whatever its
   * state since): theirs from then on, no longer the customer's to cancel.
   */
  async approvedPayouts(pool: pg.Pool, transactionIds: string[]): Promise<Set<string>> {
    if (transactionIds.length === 0) return new Set();
    const { rows } = await pool.query<ColumnsOf<typeof payouts, 'transaction_id'>>(
      'SELECT transaction_id FROM payouts WHERE transaction_id = ANY($1::uuid[])',
      [transactionIds],
    );
    return new Set(rows.map((r) => r.transaction_id));
  },

  /** The bank account each of these bank payouts pays, its columns still encrypted. */
  async bankAccounts(pool: pg.Pool, transactionIds: string[]): Promise<EncryptedAccount[]> {
    if (transactionIds.length === 0) return [];
    const { rows } = await pool.query<EncryptedAccount>(
      `SELECT transaction_id, account_name_encrypted, account_number_encrypted, bsb_number_encrypted
         FROM bank_transfers WHERE transaction_id = ANY($1::uuid[])`,
      [transactionIds],
    );
    return rows;
  },
};

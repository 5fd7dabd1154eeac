import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { transactions } from './transactions';
import { users } from './users';

/**
 * Payouts on chain. Coffer builds unsigned transactions, the operator signs them outside
 * Coffer, Coffer checks and broadcasts the signed ones and the chain watcher settles them.
 * The ledger row of a payout stays pending (its amount and fee held) until the chain
 * proves the payment; only then is it completed.
 */

/**
 * A batch: one Bitcoin transaction (and its fee bumps), or a run of Ethereum transactions
 * from the payout address with consecutive nonces. State: 'built' | 'broadcast' |
 * 'confirming' | 'completed' | 'abandoned' (the chain proved it can no longer confirm).
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chain: text('chain').notNull(),
    state: text('state').notNull().default('built'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Bitcoin: the change output's place on the internal chain (account/1/index). */
    changeIndex: integer('change_index'),
    /**
     * A transaction Coffer did not build that spent one of the batch's inputs, and its
     * block: the batch is abandoned once that block has the chain's confirmations (a
     * reorganisation before then clears it).
     */
    conflictHash: text('conflict_hash'),
    conflictHeight: bigint('conflict_height', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payout_batches_chain_idx').on(t.chain, t.createdAt)],
);

/**
 * A transaction of a batch as Coffer built it and, once submitted, as it was signed.
 * Bitcoin: the batch's transaction and each fee bump (all candidates until one confirms).
 * Ethereum: one per payout, with its nonce. State: 'unsigned' | 'broadcast' | 'mined' |
 * 'replaced' (another candidate confirmed) | 'conflicted' (its inputs or nonce were used
 * by a transaction Coffer did not build) | 'abandoned' (staff abandoned the batch before
 * anything was signed: its nonce and inputs are free again).
 */
export const payoutTransactions = pgTable(
  'payout_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => payoutBatches.id),
    chain: text('chain').notNull(),
    state: text('state').notNull().default('unsigned'),
    /** The unsigned transaction's id (Bitcoin: the same once signed) or the signed hash. */
    txHash: text('tx_hash'),
    /** What Coffer built: Bitcoin the PSBT (base64), Ethereum the entry (JSON). */
    unsigned: text('unsigned').notNull(),
    /** What it built, in figures: inputs, outputs, change, fee (checked again at submit). */
    built: jsonb('built').notNull(),
    /** The signed transaction (hex), recorded before it is first sent. */
    signedHex: text('signed_hex'),
    /** Ethereum: the payout address's nonce this transaction uses. */
    nonce: integer('nonce'),
    /** The fee it pays if it confirms (Bitcoin: the batch's; Ethereum: the cap). */
    feeMinor: numeric('fee_minor', { precision: 78, scale: 0 }),
    /** Bitcoin sat/vB. */
    feeRate: numeric('fee_rate', { precision: 20, scale: 3 }),
    /** Ethereum: another transaction that used this nonce, and its block (as a batch's). */
    conflictHash: text('conflict_hash'),
    conflictHeight: bigint('conflict_height', { mode: 'number' }),
    /** The candidate this one replaces (a Bitcoin fee bump). */
    replaces: uuid('replaces'),
    blockHeight: bigint('block_height', { mode: 'number' }),
    blockHash: text('block_hash'),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    /** The node's reason when it last refused to broadcast this transaction (cleared once sent). */
    sendError: text('send_error'),
    sendErrorAt: timestamp('send_error_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payout_transactions_batch_idx').on(t.batchId),
    uniqueIndex('payout_transactions_hash_key')
      .on(t.chain, t.txHash)
      .where(sql`${t.txHash} IS NOT NULL`),
    // A nonce belongs to one live transaction: building twice never hands it out twice.
    uniqueIndex('payout_transactions_live_nonce_key')
      .on(t.chain, t.nonce)
      .where(sql`${t.nonce} IS NOT NULL AND ${t.state} IN ('unsigned', 'broadcast', 'mined')`),
  ],
);

/**
 * Outputs a live Bitcoin batch spends: reserved from the build until the batch confirms
 * (then spent for good) or is abandoned (then deleted, free again). One row per output.
 */
export const payoutInputs = pgTable(
  'payout_inputs',
  {
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => payoutBatches.id),
    amountMinor: numeric('amount_minor', { precision: 78, scale: 0 }).notNull(),
  },
  (t) => [
    uniqueIndex('payout_inputs_once_key').on(t.chain, t.txHash, t.outputIndex),
    index('payout_inputs_batch_idx').on(t.batchId),
  ],
);

/**
 * Bitcoin outputs Coffer can spend besides its deposits: the change of its own batches, on
 * the internal chain (account/1/index), recorded when their batch is mined.
 */
export const payoutChangeOutputs = pgTable(
  'payout_change_outputs',
  {
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    amountMinor: numeric('amount_minor', { precision: 78, scale: 0 }).notNull(),
    script: text('script').notNull(),
    blockHeight: bigint('block_height', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payout_change_outputs_key').on(t.txHash, t.outputIndex)],
);

/**
 * A crypto withdrawal's way out, beside its ledger row. State: 'approved' (four eyes: by
 * an admin who neither created nor edited it) → 'in-batch' → 'broadcast' → 'confirming' →
 * 'completed'; 'manual' when staff typed the hash of a payment made outside Coffer (until
 * the chain shows it, or the typed hash expires), 'unverified' when its chain is not
 * watched. It returns to 'approved' only when the chain proves its transaction can no
 * longer confirm and it was never completed. A completed payout whose block a
 * reorganisation replaced is 'confirming' again (completed once more when mined, the
 * ledger untouched); one whose transaction can no longer confirm is 'reversed-on-chain':
 * staff re-send its signed bytes or return it by a two-person decision, never Coffer alone.
 */
export const payouts = pgTable(
  'payouts',
  {
    transactionId: uuid('transaction_id')
      .primaryKey()
      .references(() => transactions.id),
    chain: text('chain').notNull(),
    assetId: text('asset_id').notNull(),
    address: text('address').notNull(),
    /** The chain watcher's form of the address (output script, lower-case 0x, 41… hex). */
    matchKey: text('match_key').notNull(),
    amountMinor: numeric('amount_minor', { precision: 78, scale: 0 }).notNull(),
    state: text('state').notNull().default('approved'),
    approvedBy: uuid('approved_by').references(() => users.id),
    approvedAt: timestamp('approved_at', { withTimezone: true }).notNull().defaultNow(),
    batchId: uuid('batch_id').references(() => payoutBatches.id),
    /** The transaction that pays it: a batch candidate's, or the hash staff typed. */
    txHash: text('tx_hash'),
    /** The output (Bitcoin vout, a token transfer's log index, -1 for plain ETH). */
    outputIndex: integer('output_index'),
    blockHeight: bigint('block_height', { mode: 'number' }),
    blockHash: text('block_hash'),
    /** The network fee actually paid for it, in the chain's fee asset's smallest unit. */
    networkFeeMinor: numeric('network_fee_minor', { precision: 78, scale: 0 }),
    /** Why an approved payout was left out of the last batch built (funds, fee cap). */
    waitingReason: text('waiting_reason'),
    /** How many times the chain sent it back to approved. */
    returnedCount: integer('returned_count').notNull().default(0),
    /**
     * When the ledger row was completed. Kept through a reorganisation: a payout mined
     * again completes once, and one whose transaction left the chain for good is never
     * returned to approved (it is 'reversed-on-chain', for staff).
     */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When staff typed the hash of a payment made outside Coffer ('manual' expires). */
    typedAt: timestamp('typed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payouts_state_idx').on(t.chain, t.state, t.approvedAt),
    index('payouts_batch_idx').on(t.batchId),
    index('payouts_tx_idx').on(t.chain, t.txHash),
    // One chain output settles one payout.
    uniqueIndex('payouts_output_claim_key')
      .on(t.chain, t.txHash, t.outputIndex)
      .where(sql`${t.txHash} IS NOT NULL AND ${t.outputIndex} IS NOT NULL`),
  ],
);

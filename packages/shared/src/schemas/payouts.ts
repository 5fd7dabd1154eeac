import { z } from 'zod';
import { ZStepUp } from './step-up';

/**
 * Payouts on chain: Coffer builds the unsigned transaction, the operator signs it outside
 * Coffer, Coffer checks and broadcasts it, and the chain watcher settles it by output.
 */

/** The chains whose payouts Coffer builds; TRON payouts are made outside and typed in. */
export const ZPayoutChain = z.enum(['bitcoin', 'ethereum']);
export type TPayoutChain = z.infer<typeof ZPayoutChain>;

/**
 * A crypto payout's state beside its ledger row (which stays pending, holding the money,
 * until `completed`): approved → in-batch → broadcast → confirming → completed. `manual`:
 * staff typed the hash of a payment made outside Coffer; it is `confirming` once the chain
 * shows it, or `unverified` on a chain Coffer does not watch. `reversed-on-chain`: it was
 * completed (the customer debited) and its transaction has since left the chain for good;
 * Coffer never pays it again by itself: staff re-send its signed bytes or return it to
 * approved by a two-person decision.
 */
export const ZPayoutState = z.enum([
  'approved',
  'in-batch',
  'broadcast',
  'confirming',
  'completed',
  'manual',
  'unverified',
  'reversed-on-chain',
]);
export type TPayoutState = z.infer<typeof ZPayoutState>;

/** A batch: built (file to sign) → broadcast → confirming → completed, or abandoned. */
export const ZBatchState = z.enum(['built', 'broadcast', 'confirming', 'completed', 'abandoned']);
export type TBatchState = z.infer<typeof ZBatchState>;

export const ZPayoutItem = z.object({
  id: z.string(),
  customerEmail: z.string(),
  assetId: z.string(),
  /** Decimal string in the asset's unit. */
  amount: z.string(),
  address: z.string(),
  state: ZPayoutState,
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  txHash: z.string().nullable(),
  confirmations: z.number().int(),
  required: z.number().int(),
  /** The network fee actually paid for this payout (decimal, in `networkFeeAsset`). */
  networkFee: z.string().nullable(),
  /** The asset the network fee is paid in: BTC, or ETH for ETH and USDT-ERC20 payouts' gas. */
  networkFeeAsset: z.string(),
  /** Why an approved payout is not in a batch (funds, fee cap), or null. */
  waitingReason: z.string().nullable(),
});
export type TPayoutItem = z.infer<typeof ZPayoutItem>;

/** A broadcast the node refused: which transaction, the node's words, and when. */
export const ZSendError = z.object({
  txHash: z.string().nullable(),
  /** Ethereum: the transaction's nonce. */
  nonce: z.number().int().nullable(),
  message: z.string(),
  at: z.string(),
});
export type TSendError = z.infer<typeof ZSendError>;

export const ZPayoutBatch = z.object({
  id: z.string(),
  chain: ZPayoutChain,
  state: ZBatchState,
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** Transaction ids of the batch (Bitcoin: the batch and any fee bump). */
  txHashes: z.array(z.string()),
  /** The fee of the live transaction (decimal, in `feeAsset`). */
  fee: z.string().nullable(),
  /** The asset the fee is paid in: BTC, or ETH (an ERC-20 payout's gas too). */
  feeAsset: z.string(),
  /** Bitcoin only: sat/vB of the live transaction. */
  feeRate: z.string().nullable(),
  payouts: z.array(ZPayoutItem),
  /** The file to sign: `<chain>-payouts-<id>.psbt` or `.json`. */
  fileName: z.string(),
  /**
   * The node's reason for each transaction of the batch it last refused to broadcast (the
   * watcher keeps offering the recorded bytes); cleared once a send is taken.
   */
  sendErrors: z.array(ZSendError),
});
export type TPayoutBatch = z.infer<typeof ZPayoutBatch>;

export const ZPayoutBalance = z.object({ assetId: z.string(), amount: z.string() });

export const ZPayoutsOverview = z.object({
  chain: ZPayoutChain,
  /** False when the chain's node and key are not configured: payouts are typed in by hand. */
  configured: z.boolean(),
  /** Ethereum's payout address (`ETH_XPUB/1/0`), or the Bitcoin change chain's next address. */
  payoutAddress: z.string().nullable(),
  balances: z.array(ZPayoutBalance),
  /**
   * Completed payouts whose transaction left the chain for good, shown first: each waits
   * for staff to re-send its signed bytes or return it to approved (two people).
   */
  reversed: z.array(ZPayoutItem),
  waiting: z.array(ZPayoutItem),
  batches: z.array(ZPayoutBatch),
  /**
   * Ethereum: the payout address's nonce on the chain is below Coffer's lowest sent
   * transaction and nothing holds the nonces between, so the later ones wait in the node's
   * queue; null when there is none (or the node did not answer).
   */
  nonceGap: z
    .object({
      chainNonce: z.number().int(),
      lowestLive: z.number().int(),
      missing: z.array(z.number().int()),
      message: z.string(),
    })
    .nullable(),
});
export type TPayoutsOverview = z.infer<typeof ZPayoutsOverview>;

export const ZPayoutsQuery = z.object({ chain: ZPayoutChain });

export const ZApprovePayoutRequest = z.object({ stepUp: ZStepUp });
export type TApprovePayoutRequest = z.input<typeof ZApprovePayoutRequest>;

export const ZBuildBatchRequest = z.object({ chain: ZPayoutChain, stepUp: ZStepUp });
export type TBuildBatchRequest = z.input<typeof ZBuildBatchRequest>;

/** The unsigned file, handed out with a step-up. */
export const ZBatchFileRequest = z.object({ stepUp: ZStepUp });
export const ZBatchFileResponse = z.object({ fileName: z.string(), content: z.string() });
export type TBatchFileResponse = z.infer<typeof ZBatchFileResponse>;

export const ZSubmitBatchRequest = z.object({
  /** A signed PSBT (base64), the Ethereum JSON with `signed` filled in, or raw signed hex. */
  signed: z.string().trim().min(1, 'Choose the signed file').max(5_000_000),
  stepUp: ZStepUp,
});
export type TSubmitBatchRequest = z.input<typeof ZSubmitBatchRequest>;

export const ZBumpBatchRequest = z.object({
  /** The new fee rate in sat/vB; above the live one and under `max_fee_rate_btc`. */
  feeRate: z.coerce.number().positive().max(1_000_000),
  stepUp: ZStepUp,
});
export type TBumpBatchRequest = z.input<typeof ZBumpBatchRequest>;

export const ZBatchResponse = z.object({ batch: ZPayoutBatch });
export type TBatchResponse = z.infer<typeof ZBatchResponse>;

export const ZBatchIdParams = z.object({ id: z.string().max(100) });

/**
 * Abandoning a built batch nobody signed: its payouts go back to approved, its Bitcoin
 * inputs and Ethereum nonces are free for the next build.
 */
export const ZAbandonBatchRequest = z.object({ stepUp: ZStepUp });
export type TAbandonBatchRequest = z.input<typeof ZAbandonBatchRequest>;

/** A payout by its ledger row's id. */
export const ZPayoutIdParams = z.object({ id: z.string().max(100) });

/** Re-sending a reversed payout's stored signed transaction, the same bytes. */
export const ZResendPayoutRequest = z.object({ stepUp: ZStepUp });
export type TResendPayoutRequest = z.input<typeof ZResendPayoutRequest>;

/** Proposing that a reversed payout be approved again (a second staff member approves). */
export const ZReturnPayoutRequest = z.object({
  reason: z
    .string()
    .trim()
    .min(3, 'Say why this payout is to be paid again')
    .max(500, 'At most 500 characters'),
  stepUp: ZStepUp,
});
export type TReturnPayoutRequest = z.input<typeof ZReturnPayoutRequest>;

/** A reversed payout re-sent: the transaction the node took. */
export const ZResendPayoutResponse = z.object({ txHash: z.string(), payouts: z.array(z.string()) });
export type TResendPayoutResponse = z.infer<typeof ZResendPayoutResponse>;

/** A batch just built or bumped, with the file to sign. */
export const ZBatchWithFileResponse = z.object({ batch: ZPayoutBatch, file: ZBatchFileResponse });
export type TBatchWithFileResponse = z.infer<typeof ZBatchWithFileResponse>;

export const ZSubmitBatchResponse = z.object({
  batch: ZPayoutBatch,
  /** Transactions sent now. */
  sent: z.array(z.string()),
  /** Transactions of the file recorded before: not sent again. */
  alreadySent: z.array(z.string()),
});
export type TSubmitBatchResponse = z.infer<typeof ZSubmitBatchResponse>;

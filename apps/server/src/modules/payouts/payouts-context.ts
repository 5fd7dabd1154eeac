import type { TStepUp } from '@coffer/shared';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { BitcoinAdapter, ChainConfigs, EthereumAdapter, TronAdapter } from '../chains';
import type { Outbox } from '../outbox';
import { SETTING_DEFAULTS } from '../settings';
import type { StaffChanges } from '../staff-changes';
import type { StepUpSubject } from '../step-up';
import type { WithdrawalsService } from '../withdrawals';
import type { KeyOrigin } from './bitcoin-psbt';

/** Who acts: the audit row's actor and address, and the session a step-up confirms. */
export type PayoutActor = {
  id: string;
  ip: string | null;
  session: StepUpSubject;
  client: Client;
};

/** Who acts on a batch: staff with their step-up, or the CLI (no actor, no step-up). */
export type BatchActor = {
  id: string | null;
  ip: string | null;
  stepUp?: (client: pg.PoolClient) => Promise<void>;
};

/**
 * What the parts of the payouts service share, built once by `createPayoutsService`: the
 * nodes and keys, and the helpers every part asks the same way.
 */
export type PayoutsContext = {
  pool: pg.Pool;
  chains: ChainConfigs;
  /** BTC_KEY_ORIGIN: the master fingerprint and account path signers derive from. */
  keyOrigin: KeyOrigin | null;
  bitcoin: BitcoinAdapter | null;
  ethereum: EthereumAdapter | null;
  /** The Ethereum payout address (ETH_XPUB/1/0), when Ethereum is configured. */
  payoutAddress: `0x${string}` | null;
  audit: AuditLog;
  log: Logger;
  /** The node of a chain, or null when it is not watched. */
  nodeOf(chain: string): BitcoinAdapter | EthereumAdapter | TronAdapter | null;
  /** A call to a chain's node: one that does not answer is a 503 saying nothing changed. */
  fromNode<T>(chain: string, act: () => Promise<T>): Promise<T>;
  /** The confirmations a chain's payouts need (its setting, at least 1). */
  required(chain: string, client?: pg.PoolClient): Promise<number>;
  /** Every setting, read in the caller's transaction when it passes one. */
  settings(client?: pg.PoolClient): Promise<Map<string, string>>;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const PAYOUT_MSG = {
  notApproved:
    'Approve this withdrawal first: a second admin approves it, then it is paid in a batch or completed with its hash.',
  alreadyApproved: 'This withdrawal is already approved.',
  onChain:
    'This withdrawal is in a payout batch: it can no longer be rejected or completed by hand. It returns to approved only if the chain proves its transaction cannot confirm.',
  bankNotApproved: 'Bank transfers are completed with the bank’s reference; they are not approved.',
  approvedNoEdit:
    'This withdrawal is approved: it is paid as approved. To change it, reject it and record a new one.',
  noneWaiting: 'No approved payouts are waiting on this chain.',
  notConfigured: 'This chain’s node and key are not configured: its payouts are completed by hash.',
  batchNotFound: 'Payout batch not found.',
  abandonState: (state: string) =>
    state === 'abandoned'
      ? 'This batch is already abandoned: its payouts are approved again.'
      : `This batch is ${state}: only a built batch nobody signed can be abandoned. Nothing was changed.`,
  abandonSigned: (tx: string) =>
    `A signed transaction of this batch (${tx}) was recorded: it may be on the network and confirm, so the batch cannot be abandoned. Nothing was changed; the chain decides it.`,
  abandonedReason: (batch: string) =>
    `Its batch ${batch} was abandoned by staff before it was signed: it goes into the next build.`,
  sendRefused: (chain: string, refused: Array<{ hash: string; reason: string }>, sent: string[]) =>
    `The ${chain} node refused ${refused
      .map((r) => `transaction ${r.hash}: ${r.reason}`)
      .join(
        '; ',
      )}. ${refused.length === 1 ? 'It is' : 'They are'} recorded as signed and offered to the node again each block until the chain settles ${refused.length === 1 ? 'it' : 'them'}; the reason shows on the Payouts screen.${sent.length > 0 ? ` Sent: ${sent.join(', ')}.` : ''}`,
  notReversed: (state: string) =>
    `This payout is ${state}, not reversed on chain: nothing was changed.`,
  payoutNotFound: 'Payout not found.',
  noSignedBytes:
    'Coffer holds no signed transaction for this payout: return it to approved instead.',
  paysOthers: (others: string[]) =>
    `Its transaction also pays ${others.join(', ')}, no longer reversed with it: sending it again would pay ${others.length === 1 ? 'that payout' : 'those payouts'} twice. Return this payout to approved instead. Nothing was changed.`,
  inputsHeld: (batches: string[]) =>
    `Its inputs are held by batch ${batches.map((b) => b.slice(0, 8)).join(', ')}: sending it again would spend them twice. Nothing was changed.`,
  nonceHeld: (nonce: number, batch: string) =>
    `Its nonce ${nonce} is used by batch ${batch.slice(0, 8)}: only one of them can confirm. Nothing was changed.`,
  resendRefused: (chain: string, reason: string) =>
    `The ${chain} node refused the transaction: ${reason}. Nothing was changed; the payout stays reversed on chain.`,
  returnedReason: (reason: string) =>
    `Its transaction left the chain after it was completed; two staff approved paying it again: ${reason}`,
} as const;

export function setting(settings: Map<string, string>, key: string): number {
  const value = settings.get(key) ?? SETTING_DEFAULTS.find((d) => d.key === key)?.value ?? 'NaN';
  return Number(value);
}

/** What the payouts service is built from (the composition root passes it). */
export type PayoutsDeps = {
  pool: pg.Pool;
  chains: ChainConfigs;
  /** BTC_KEY_ORIGIN: the master fingerprint and account path signers derive from. */
  keyOrigin: KeyOrigin | null;
  bitcoin: BitcoinAdapter | null;
  ethereum: EthereumAdapter | null;
  /** Reads only: a TRON payout's typed hash is verified, never sent by Coffer. */
  tron: TronAdapter | null;
  withdrawals: Pick<WithdrawalsService, 'settle'>;
  audit: AuditLog;
  outbox: Pick<Outbox, 'deliver'>;
  stepUp: {
    confirm(
      client: pg.PoolClient,
      session: StepUpSubject,
      proof: TStepUp,
      who: Client,
    ): Promise<void>;
  };
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  /**
   * The 30-day rule (a recent funder of a customer decides none of their payouts), and the
   * two-person changes this module registers (`payout.return`) and proposes.
   */
  changes: Pick<StaffChanges, 'assertNotFunder' | 'register' | 'propose'>;
  log: Logger;
};

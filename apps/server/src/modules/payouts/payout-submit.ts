import type { TPayoutBatch, TPayoutChain } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { crashNow, faultArmed } from '@server/lib/test-fault';
import { parseTransaction } from 'viem';
import type { BitcoinNetwork } from '../chains';
import { checkSignedBitcoin } from './bitcoin-psbt-check';
import { checkSignedEthereum, parseEthereumSubmission } from './ethereum-payout-check';
import type { EthPayoutEntry } from './ethereum-payout-tx';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { PayoutFileError } from './payout-file-error';
import { payoutsRepository as payoutsRepo } from './payouts.repository';
import { type BatchActor, PAYOUT_MSG, type PayoutsContext, UUID } from './payouts-context';
import { batchView } from './payouts-view';

/**
 * Checks a signed file against what Coffer built, records each transaction's hash and
 * signed bytes (committed before anything is sent), then sends them. Every transaction in
 * the file must pass before any is recorded. A transaction already recorded is not sent
 * again: submitting a file twice broadcasts once. An Ethereum transaction whose max fee is
 * below the latest block's base fee is refused with the rest (400, both named): the node
 * would keep it queued and never mine it.
 *
 * A send the node refuses answers 409 `CONFLICT` with the node's words (409, not 422: the
 * file was right, the chain's present state refuses it, as with any other conflict). The
 * transaction stays recorded (its bytes may still be taken, e.g. once the mempool clears,
 * and a recorded transaction is never built or paid again); the reason is stored on it
 * (`send_error`, shown on the Payouts screen) until a later send is taken.
 */
export async function submitSigned(
  ctx: PayoutsContext,
  actor: BatchActor,
  chain: TPayoutChain,
  text: string,
  batchId: string | null,
): Promise<{ batch: TPayoutBatch; sent: string[]; alreadySent: string[] }> {
  const { pool } = ctx;
  const node = ctx.nodeOf(chain);
  if (!node) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  const found = batchId ?? (await findBatch(ctx, chain, text));
  if (!found || !UUID.test(found)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  // Asked before the batch is locked: a node that does not answer is a 503, nothing changed.
  const baseFee = chain === 'ethereum' ? await latestBaseFee(ctx) : null;
  const toSend: Array<{ id: string; hex: string; hash: string }> = [];
  const already: string[] = [];
  await withTransaction(pool, async (client) => {
    // A try withTransaction runs again (a deadlock) starts from empty lists.
    toSend.length = 0;
    already.length = 0;
    const batch = await batchesRepo.lockBatch(client, found);
    if (!batch || batch.chain !== chain) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    if (batch.state === 'abandoned' || batch.state === 'completed') {
      throw new AppError('CONFLICT', `This batch is ${batch.state}: nothing was sent.`);
    }
    const candidates = await batchesRepo.lockCandidates(client, batch.id);
    const checked =
      chain === 'bitcoin'
        ? [checkBitcoin(candidates, text, ctx.chains.bitcoinNetwork)]
        : await checkEthereum(ctx, candidates, text, baseFee);
    await actor.stepUp?.(client);
    for (const c of checked) {
      if (c.candidate.state !== 'unsigned') {
        already.push(c.hash);
        continue;
      }
      try {
        await batchesRepo.recordSigned(client, c.candidate.id, c.hash, c.hex);
      } catch (err) {
        // The same signed bytes recorded for another batch (a rebuild that came out
        // identical to an abandoned or returned one): sending them again pays nothing new.
        const e = err as { code?: string; constraint?: string };
        if (e?.code === '23505' && e.constraint === 'payout_transactions_hash_key') {
          throw new AppError(
            'CONFLICT',
            `Transaction ${c.hash} is already recorded for another payout batch: nothing was sent. Abandon this batch and build again.`,
          );
        }
        throw err;
      }
      toSend.push({ id: c.candidate.id, hex: c.hex, hash: c.hash });
    }
    if (toSend.length > 0) {
      if (batch.state === 'built') await batchesRepo.setBatchState(client, batch.id, 'broadcast');
      for (const p of await payoutsRepo.payoutsOfBatch(client, batch.id)) {
        const mine = toSend.find((s) =>
          chain === 'bitcoin'
            ? true
            : (candidates.find((c) => c.id === s.id)?.built as { payoutId?: string })?.payoutId ===
              p.transaction_id,
        );
        if (mine && p.state === 'in-batch') {
          await payoutsRepo.setPayoutState(client, p.transaction_id, {
            state: 'broadcast',
            txHash: mine.hash,
          });
        }
      }
      await ctx.audit.record(client, {
        actorId: actor.id,
        action: 'payouts.submit',
        targetType: 'payout_batch',
        targetId: batch.id,
        targetUserId: null,
        before: { state: batch.state },
        after: { state: 'broadcast', transactions: toSend.map((s) => s.hash) },
        reason: null,
        ip: actor.ip,
      });
    }
  });
  const sent: string[] = [];
  const refused: Array<{ hash: string; reason: string }> = [];
  for (const s of toSend) {
    try {
      await node.broadcast(s.hex);
      if (faultArmed('kill-after-broadcast')) crashNow();
      await batchesRepo.noteSendOutcome(pool, s.id, null);
      sent.push(s.hash);
    } catch (err) {
      // Recorded, so never built or paid again: the watcher re-sends the same bytes.
      const reason = err instanceof Error ? err.message : String(err);
      ctx.log.warn(
        { chain, tx: s.hash, err: reason },
        'payout broadcast failed; it is re-sent with the same bytes until the chain settles it',
      );
      await batchesRepo.noteSendOutcome(pool, s.id, reason);
      refused.push({ hash: s.hash, reason });
    }
  }
  if (refused.length > 0) {
    throw new AppError(
      'CONFLICT',
      PAYOUT_MSG.sendRefused(chain === 'bitcoin' ? 'Bitcoin' : 'Ethereum', refused, sent),
    );
  }
  const batch = await batchesRepo.batch(pool, found);
  if (!batch) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  return { batch: await batchView(ctx, pool, batch), sent, alreadySent: already };
}

/** The batch a signed file belongs to, when the caller does not say (the CLI). */
async function findBatch(
  ctx: PayoutsContext,
  chain: TPayoutChain,
  text: string,
): Promise<string | null> {
  if (chain === 'ethereum') {
    const parsedFile = tryJson(text);
    if (parsedFile && typeof parsedFile === 'object' && 'batchId' in parsedFile) {
      const id = (parsedFile as { batchId: unknown }).batchId;
      return typeof id === 'string' ? id : null;
    }
    let nonce: number | undefined;
    try {
      const [first] = parseEthereumSubmission(text);
      nonce = first ? parseTransaction(first.signed as `0x${string}`).nonce : undefined;
    } catch (err) {
      // A file that cannot be read is refused as the API refuses it, never a crash.
      throw refusal(err);
    }
    return nonce === undefined ? null : batchesRepo.batchOfCandidate(ctx.pool, chain, { nonce });
  }
  for (const c of await batchesRepo.candidatesOfChain(ctx.pool, 'bitcoin')) {
    try {
      const checked = checkSignedBitcoin(c.unsigned, text, ctx.chains.bitcoinNetwork);
      if (checked.txid === c.tx_hash) return c.batch_id;
    } catch {
      // Not this batch's.
    }
  }
  return null;
}

function checkBitcoin(candidates: CandidateRow[], text: string, network: BitcoinNetwork) {
  // The newest unsigned candidate first (a fee bump), then any already sent.
  const order = [
    ...candidates.filter((c) => c.state === 'unsigned').reverse(),
    ...candidates.filter((c) => c.state !== 'unsigned'),
  ];
  let firstError: PayoutFileError | null = null;
  for (const candidate of order) {
    try {
      const checked = checkSignedBitcoin(candidate.unsigned, text, network);
      if (['replaced', 'conflicted'].includes(candidate.state)) {
        throw new PayoutFileError([`this transaction is ${candidate.state}; nothing was sent`]);
      }
      return { candidate, hash: checked.txid, hex: checked.hex };
    } catch (err) {
      if (!(err instanceof PayoutFileError)) throw err;
      firstError ??= err;
    }
  }
  throw refusal(firstError ?? new PayoutFileError(['the batch has no transaction to sign']));
}

/** The latest block's base fee per gas (wei), or null on a chain without one. */
async function latestBaseFee(ctx: PayoutsContext): Promise<bigint | null> {
  const node = ctx.ethereum;
  if (!node) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  return ctx.fromNode('ethereum', async () => {
    const block = await node.publicClient.getBlock({ blockTag: 'latest' });
    return block.baseFeePerGas ?? null;
  });
}

async function checkEthereum(
  ctx: PayoutsContext,
  candidates: CandidateRow[],
  text: string,
  baseFee: bigint | null,
) {
  const { payoutAddress } = ctx;
  if (!payoutAddress) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  let submitted: ReturnType<typeof parseEthereumSubmission>;
  try {
    submitted = parseEthereumSubmission(text);
  } catch (err) {
    throw refusal(err);
  }
  const out: Array<{ candidate: CandidateRow; hash: string; hex: string }> = [];
  const differences: string[] = [];
  for (const s of submitted) {
    let nonce: number | undefined;
    try {
      nonce = parseTransaction(s.signed as `0x${string}`).nonce;
    } catch {
      differences.push('a transaction in the file cannot be read');
      continue;
    }
    const candidate = candidates.find((c) => c.nonce === nonce);
    if (!candidate) {
      differences.push(`no transaction of this batch uses nonce ${nonce}`);
      continue;
    }
    try {
      const checked = await checkSignedEthereum(
        JSON.parse(candidate.unsigned) as EthPayoutEntry,
        s.signed as `0x${string}`,
        payoutAddress,
        // Only what is to be recorded now: one recorded before is not sent again anyway.
        { baseFeePerGas: candidate.state === 'unsigned' ? baseFee : null },
      );
      if (['replaced', 'conflicted'].includes(candidate.state)) {
        differences.push(`nonce ${nonce}'s transaction is ${candidate.state}`);
        continue;
      }
      out.push({ candidate, hash: checked.hash, hex: checked.raw });
    } catch (err) {
      if (!(err instanceof PayoutFileError)) throw err;
      differences.push(...err.differences.map((d) => `nonce ${nonce}: ${d}`));
    }
  }
  if (differences.length > 0) throw refusal(new PayoutFileError(differences));
  if (out.length === 0)
    throw refusal(new PayoutFileError(['the file holds no signed transaction']));
  return out;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A refused file as the API answers it: a 400 with every difference named. */
function refusal(err: unknown): AppError {
  if (err instanceof PayoutFileError) return new AppError('VALIDATION_FAILED', err.message);
  if (err instanceof AppError) return err;
  return new AppError(
    'VALIDATION_FAILED',
    `The signed file cannot be read: ${err instanceof Error ? err.message : String(err)}`,
  );
}

import {
  ADMIN_AUD_PER_USD,
  ADMIN_TRANSACTION_TYPES,
  ADMIN_TX_MSG,
  ALL_ASSET_IDS,
  ASSETS,
  assetById,
  convertFiat,
  normalizeBankReference,
  normalizeTxHash,
  parseAmount,
  type TAdminTransaction,
  type TAdminTransactionSummary,
  type TAdminTransactionsResponse,
  type TCreateAdminTransaction,
  type TDeleteAdminTransactionRequest,
  type TStepUp,
  type TUpdateAdminTransaction,
  validateAddress,
  withoutStepUp,
  ZAnyAssetId,
  ZTransactionType,
} from '@coffer/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import type { Secrets } from '../../lib/crypto';
import type { AuditLog } from '../audit';
import type { Ledger, Revision, TransactionRow } from '../ledger';
import { requestHash, runOnce, trimDecimal, usdShown } from '../ledger';
import type { PayoutsService } from '../payouts';
import type { StepUp, StepUpSubject } from '../step-up';
import type { WithdrawalsService } from '../withdrawals';
import {
  type AdminTransactionListRow,
  type AdminTransactionRow,
  type BankAccountRow,
  type ListFilters,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';

const CREATE_ROUTE = 'POST /api/admin/transactions';
const PAYOUT_TYPES: ReadonlySet<string> = new Set(['withdrawal', 'bank_transfer']);
const ADMIN_TYPES: ReadonlySet<string> = new Set(ADMIN_TRANSACTION_TYPES);
const PENDING_LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who acts, and from where: the audit row's actor and address, and the session and client
 * whose fresh second factor confirms a change (step-up, as a customer's payout takes).
 */
export type Actor = { id: string; ip: string | null; session: StepUpSubject; client: Client };

type TType = TAdminTransaction['type'];
const isType = (value: string): value is TType => ZTransactionType.options.some((t) => t === value);

/** `%text%` for ILIKE with the text's own wildcards taken literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Assets the search text names exactly: an id, a symbol or a name ('usdt', 'Bitcoin'). */
function assetsNamed(q: string): string[] {
  const wanted = q.toLowerCase();
  const crypto = ALL_ASSET_IDS.filter((id) => {
    const a = ASSETS[id];
    return [a.id, a.symbol, a.name].some((v) => v.toLowerCase() === wanted);
  });
  // Bank transfers are recorded in their fiat currency.
  const fiat = ['AUD', 'USD'].filter((c) => c.toLowerCase() === wanted);
  return [...crypto, ...fiat];
}

/**
 * The uuid range an id or an id prefix covers ('3f2a' is 3f2a0000-… to 3f2affff-…): the
 * primary key answers it. At least 4 hex digits, so a short word is not read as an id.
 */
function idRangeOf(q: string): { low: string; high: string } | null {
  if (UUID.test(q)) return { low: q.toLowerCase(), high: q.toLowerCase() };
  const hex = q.toLowerCase().replace(/-/g, '');
  if (!/^[0-9a-f]{4,31}$/.test(hex) || !/^[0-9a-f-]+$/i.test(q)) return null;
  const shape = (digits: string) =>
    `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
  return { low: shape(hex.padEnd(32, '0')), high: shape(hex.padEnd(32, 'f')) };
}

/** USD × 1.52, to the cent: the AUD figure when staff leave it empty. */
function audOf(usd: string): string {
  return convertFiat(usd, ADMIN_AUD_PER_USD, 'aud-to-usd');
}

/** A bank payout's account as the audit log keeps it: in clear, the log is admin-only. */
type BankFacts = {
  accountName: string;
  accountNumber: string;
  bsbNumber: string;
  amountFiat: string;
  currency: string;
};

/**
 * What the audit log keeps of a row: every field that decides where money goes and who
 * moved it (amount, fee, asset, address, memo, the bank account, status, reference,
 * processor, editors), so a before/after pair shows any change to a payout.
 */
function auditView(row: TransactionRow, bank: BankFacts | null) {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    network: row.network,
    amount: trimDecimal(row.crypto_amount),
    fee: trimDecimal(row.fee),
    usdAmount: row.usd_amount,
    audAmount: row.aud_amount,
    currency: row.currency,
    audUsdRate: row.exchange_rate,
    priceUsd: row.price_usd,
    status: row.status,
    date: row.transaction_date.toISOString(),
    withdrawalAddress: row.withdrawal_address,
    memo: row.memo,
    accountName: bank?.accountName ?? null,
    accountNumber: bank?.accountNumber ?? null,
    bsbNumber: bank?.bsbNumber ?? null,
    amountFiat: bank?.amountFiat ?? null,
    bankCurrency: bank?.currency ?? null,
    transactionHash: row.transaction_hash,
    reason: row.reason,
    createdBy: row.created_by,
    processedBy: row.processed_by,
    editorIds: row.editor_ids,
    deleted: row.deleted_at !== null,
  };
}

function pgError(err: unknown): { code?: unknown; constraint?: unknown } | null {
  return typeof err === 'object' && err !== null ? err : null;
}

/** pg's unique violation on the deposit hash index: the chain deposit is already credited. */
function isDuplicateDeposit(err: unknown): boolean {
  const e = pgError(err);
  return e?.code === '23505' && e.constraint === 'transactions_deposit_chain_hash_key';
}

/** The database's own refusal of a change to a final row (trigger `transactions_final`). */
function isFinalRow(err: unknown): boolean {
  const e = pgError(err);
  return e?.code === '23514' && e.constraint === 'transactions_final';
}

const DUPLICATE_DEPOSIT = 'This chain transaction was already credited as a deposit.';

/** Completed or rejected payouts are history: the message says which, and what to do. */
function finalPayoutMessage(row: Pick<TransactionRow, 'transaction_type' | 'status'>) {
  if (!PAYOUT_TYPES.has(row.transaction_type)) return null;
  if (row.status === 'completed') return ADMIN_TX_MSG.payoutCompletedFinal;
  if (row.status === 'failed') return ADMIN_TX_MSG.payoutRejectedFinal;
  return null;
}

/** Why a row may not be edited or deleted at all, or null. */
function finalRowMessage(row: Pick<TransactionRow, 'transaction_type' | 'status'>) {
  if (row.transaction_type === 'adjustment') return ADMIN_TX_MSG.adjustmentFinal;
  return finalPayoutMessage(row);
}

/**
 * A chain hash as its network writes it (or a bank reference for a bank transfer); a bad
 * one is the admin's to fix. Empty stays empty.
 */
function referenceFor(bank: boolean, assetId: string, value: string): string | null {
  if (value === '') return null;
  const result = bank ? normalizeBankReference(value) : normalizeTxHash(assetId, value);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.value;
}

/** Two typed or stored decimal figures name the same amount ('100' and '100.00'). */
function sameFigure(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return parseAmount(a, 18) === parseAmount(b, 18);
  } catch {
    return false;
  }
}

/** Transactions and withdrawal processing for staff. */
export function createAdminTransactionsService(s: {
  pool: pg.Pool;
  ledger: Ledger;
  audit: AuditLog;
  secrets: Secrets;
  withdrawals: WithdrawalsService;
  payouts: PayoutsService;
  stepUp: StepUp;
}) {
  const { pool, ledger, audit, secrets, withdrawals } = s;

  function presentSummary(row: AdminTransactionListRow): TAdminTransactionSummary {
    if (!isType(row.transaction_type)) {
      throw new Error(`unknown transaction type ${row.transaction_type}`);
    }
    return {
      id: row.id,
      customer: {
        id: row.user_id,
        email: row.email,
        fullName: row.full_name,
        username: row.username,
      },
      type: row.transaction_type,
      direction: row.direction,
      assetId: row.asset_id,
      symbol: assetById(row.asset_id)?.symbol ?? row.asset_id,
      amount: trimDecimal(row.crypto_amount),
      usdAmount: usdShown(row),
      audAmount: row.aud_amount,
      currency: row.currency,
      status: row.status,
      date: row.transaction_date.toISOString(),
    };
  }

  function present(row: AdminTransactionRow): TAdminTransaction {
    // Staff process the transfer, so they read the account it goes to.
    const bank = bankFacts(row);
    return {
      ...presentSummary(row),
      network: row.network,
      fee: trimDecimal(row.fee),
      withdrawalAddress: row.withdrawal_address,
      transactionHash: row.transaction_hash,
      memo: row.memo,
      reason: row.reason,
      completedAt: row.completed_at?.toISOString() ?? null,
      createdBy: row.created_by,
      updatedBy: row.updated_by,
      editorIds: row.editor_ids,
      processedBy: row.processed_by,
      bankTransfer: bank,
      audUsdRate: row.transaction_type === 'bank_transfer' ? row.exchange_rate : null,
      priceUsd: row.price_usd,
    };
  }

  function bankFacts(row: BankAccountRow | null): BankFacts | null {
    if (
      !row?.account_name_encrypted ||
      !row.account_number_encrypted ||
      !row.bsb_number_encrypted
    ) {
      return null;
    }
    return {
      accountName: secrets.decrypt(row.account_name_encrypted),
      accountNumber: secrets.decrypt(row.account_number_encrypted),
      bsbNumber: secrets.decrypt(row.bsb_number_encrypted),
      amountFiat: row.amount_fiat ?? '0',
      currency: row.bank_currency ?? 'AUD',
    };
  }

  /** A row as the audit log keeps it, with its bank account read as it is now. */
  async function audited(client: pg.PoolClient, row: TransactionRow) {
    const bank =
      row.transaction_type === 'bank_transfer'
        ? bankFacts(await repo.bankAccountOf(client, row.id))
        : null;
    return auditView(row, bank);
  }

  async function view(db: pg.Pool | pg.PoolClient, id: string): Promise<TAdminTransaction> {
    const row = await repo.findById(db, id);
    if (!row) throw new AppError('NOT_FOUND', 'Transaction not found.');
    return (await withPayoutStates([present(row)]))[0] as TAdminTransaction;
  }

  /** Each crypto withdrawal's way out on chain, once approved. */
  async function withPayoutStates(items: TAdminTransaction[]): Promise<TAdminTransaction[]> {
    const states = await s.payouts.statesOf(
      items.filter((i) => i.type === 'withdrawal').map((i) => i.id),
    );
    return items.map((i) => ({
      ...i,
      payoutState: (states.get(i.id)?.state ?? null) as TAdminTransaction['payoutState'],
    }));
  }

  /** The bank_transfers row of a bank transfer, account details encrypted at rest. */
  async function saveBank(
    client: pg.PoolClient,
    transactionId: string,
    body: Pick<TCreateAdminTransaction, 'bank' | 'usdAmount'>,
    audAmount: string,
    keepFigure?: { amountFiat: string; currency: string },
  ) {
    const bank = body.bank;
    if (!bank) throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.bankDetailsRequired);
    await repo.insertBankTransfer(client, {
      transactionId,
      accountNameEncrypted: secrets.encrypt(bank.accountName),
      accountNumberEncrypted: secrets.encrypt(bank.accountNumber),
      bsbNumberEncrypted: secrets.encrypt(bank.bsbNumber),
      amountFiat: keepFigure?.amountFiat ?? (bank.currency === 'USD' ? body.usdAmount : audAmount),
      currency: keepFigure?.currency ?? bank.currency,
    });
  }

  /** A withdrawal address as the network's rule leaves it; null for other types. */
  function addressFor(type: string, assetId: string, address: string): string | null {
    if (type !== 'withdrawal') return null;
    const result = validateAddress(assetId, address);
    if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
    return result.address;
  }

  /**
   * Four-eyes (product.md M7): money leaves only when a second admin completes what the
   * first recorded, so an Add may not record a payout as completed.
   */
  function refuseSelfCompletedPayout(type: string, status: string): void {
    if (PAYOUT_TYPES.has(type) && status === 'completed') {
      throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutPending);
    }
  }

  /**
   * What an Edit may not do, judged on the locked row: touch final history (a completed or
   * rejected payout, an adjustment, a staking reward), turn a payout into something else or
   * anything into a payout, or move a payout's status (Complete and Reject do that: they
   * tell the customer and check four eyes).
   */
  function refuseEdit(current: TransactionRow, body: TUpdateAdminTransaction): void {
    const final = finalRowMessage(current);
    if (final) throw new AppError('CONFLICT', final);
    if (!ADMIN_TYPES.has(current.transaction_type)) {
      throw new AppError('CONFLICT', ADMIN_TX_MSG.stakingRewardNoEdit);
    }
    const wasPayout = PAYOUT_TYPES.has(current.transaction_type);
    if ((wasPayout || PAYOUT_TYPES.has(body.type)) && body.type !== current.transaction_type) {
      throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutTypeLocked);
    }
    if (wasPayout && body.status !== current.status) {
      throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutStatusByEdit);
    }
  }

  /**
   * A payout the customer asked for goes where, in what and for how much they confirmed
   * with their own second factor: staff complete or reject it, never redirect it (an edit
   * of the destination would be paid by the next admin without the customer's word).
   */
  function refuseRedirect(current: AdminTransactionRow, body: TUpdateAdminTransaction): void {
    if (!PAYOUT_TYPES.has(current.transaction_type) || current.created_by !== current.user_id) {
      return;
    }
    const sameUsd =
      sameFigure(body.usdAmount, usdShown(current)) ||
      sameFigure(body.usdAmount, current.usd_amount);
    const sameAud = body.audAmount === '' || sameFigure(body.audAmount, current.aud_amount);
    let same = sameUsd && sameAud;
    if (current.transaction_type === 'withdrawal') {
      const address = validateAddress(current.asset_id, body.withdrawalAddress);
      same &&=
        body.assetId === current.asset_id &&
        sameFigure(body.cryptoAmount, current.crypto_amount) &&
        address.ok &&
        address.address === current.withdrawal_address;
    } else {
      const bank = bankFacts(current);
      same &&=
        bank !== null &&
        body.bank !== undefined &&
        body.bank.accountName === bank.accountName &&
        body.bank.accountNumber === bank.accountNumber &&
        body.bank.bsbNumber === bank.bsbNumber &&
        body.bank.currency === bank.currency;
    }
    if (!same) throw new AppError('CONFLICT', ADMIN_TX_MSG.customerPayoutLocked);
  }

  /** The acting admin's fresh second factor, used up on the change's own transaction. */
  function confirmStepUp(client: pg.PoolClient, actor: Actor, proof: TStepUp): Promise<void> {
    return s.stepUp.confirm(client, actor.session, proof, actor.client);
  }

  /**
   * What an Edit leaves the row as. An empty hash keeps the stored one (an edit never drops
   * a payout's reference); a typed one must be a hash of the row's network. A bank payout
   * funded from the customer's crypto (product.md M11) keeps its hold and the figures it
   * was converted from: only its account and date may change.
   */
  function revisionOf(
    current: AdminTransactionRow,
    body: TUpdateAdminTransaction,
    actor: Actor,
  ): Revision {
    const transactionDate = new Date(body.transactionDate);
    const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
    if (body.type === 'bank_transfer') {
      const transactionHash =
        body.transactionHash === ''
          ? current.transaction_hash
          : referenceFor(true, current.asset_id, body.transactionHash);
      const funding = current.direction === 'none' ? undefined : assetById(current.asset_id);
      if (funding) {
        const sameUsd =
          sameFigure(body.usdAmount, usdShown(current)) ||
          sameFigure(body.usdAmount, current.usd_amount);
        const sameAud = body.audAmount === '' || sameFigure(body.audAmount, current.aud_amount);
        if (!sameUsd || !sameAud) {
          throw new AppError('CONFLICT', ADMIN_TX_MSG.fundedPayoutAmounts);
        }
        return {
          type: 'bank_transfer',
          direction: current.direction,
          assetId: funding.id,
          amount: parseAmount(current.crypto_amount, funding.decimals),
          usdAmount: current.usd_amount,
          audAmount: current.aud_amount,
          currency: current.currency,
          status: body.status,
          transactionDate,
          withdrawalAddress: current.withdrawal_address,
          transactionHash,
          updatedBy: actor.id,
        };
      }
      return {
        type: 'bank_transfer',
        direction: 'none',
        assetId: body.bank?.currency ?? current.asset_id,
        amount: 0n,
        usdAmount: body.usdAmount,
        audAmount,
        currency: body.bank?.currency ?? 'AUD',
        status: body.status,
        transactionDate,
        withdrawalAddress: null,
        transactionHash,
        updatedBy: actor.id,
      };
    }
    const asset = ASSETS[ZAnyAssetId.parse(body.assetId)];
    let transactionHash = referenceFor(false, asset.id, body.transactionHash);
    if (transactionHash === null && current.transaction_hash !== null) {
      // Kept, in the form of the row's network now (the asset may have changed).
      const kept = normalizeTxHash(asset.id, current.transaction_hash);
      transactionHash = kept.ok ? kept.value : current.transaction_hash;
    }
    const credit = body.type === 'deposit' || body.type === 'buy';
    return {
      type: body.type,
      direction: credit ? 'credit' : 'debit',
      assetId: asset.id,
      amount: parseAmount(body.cryptoAmount, asset.decimals),
      usdAmount: body.usdAmount,
      audAmount,
      currency: current.currency ?? 'USD',
      status: body.status,
      transactionDate,
      withdrawalAddress: addressFor(body.type, asset.id, body.withdrawalAddress),
      transactionHash,
      updatedBy: actor.id,
    };
  }

  return {
    async list(query: {
      q: string;
      status: string;
      type: string;
      currency: string;
      page: number;
      pageSize: number;
    }): Promise<TAdminTransactionsResponse> {
      const q = query.q.trim();
      const filters: ListFilters = {
        status: query.status === 'all' ? null : query.status,
        type: query.type === 'all' ? null : query.type,
        currency: query.currency === 'all' ? null : query.currency,
        userPattern: q === '' ? null : likePattern(q),
        assetIds: q === '' ? [] : assetsNamed(q),
        idRange: q === '' ? null : idRangeOf(q),
      };
      const offset = (query.page - 1) * query.pageSize;
      // One row more than the page says whether there is a next page, without counting
      // every matching row (a COUNT over a million rows would cost more than the page).
      const rows = await repo.listPage(pool, filters, offset, query.pageSize + 1);
      return {
        items: rows.slice(0, query.pageSize).map(presentSummary),
        page: query.page,
        pageSize: query.pageSize,
        hasMore: rows.length > query.pageSize,
      };
    },

    get: (id: string) => view(pool, id),

    async pending(): Promise<TAdminTransaction[]> {
      return withPayoutStates((await repo.pendingPayouts(pool, PENDING_LIMIT)).map(present));
    },

    async create(
      actor: Actor,
      body: TCreateAdminTransaction,
      idempotencyKey: string | undefined,
    ): Promise<TAdminTransaction> {
      // A retry of the same request carries a new code: the key stands for the rest.
      const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
      try {
        const answer = await withTransaction(pool, (client) =>
          runOnce(client, { userId: actor.id, key: idempotencyKey, hash }, async () => {
            refuseSelfCompletedPayout(body.type, body.status);
            if (!(await repo.customerExists(client, body.userId))) {
              throw new AppError('NOT_FOUND', 'Customer not found.');
            }
            const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
            const transactionDate = new Date(body.transactionDate);
            let row: TransactionRow;
            if (body.type === 'bank_transfer') {
              const currency = body.bank?.currency ?? 'AUD';
              row = await ledger.postFiat(client, {
                userId: body.userId,
                type: 'bank_transfer',
                currency,
                usdAmount: body.usdAmount,
                audAmount,
                status: body.status,
                transactionHash: referenceFor(true, currency, body.transactionHash),
                createdBy: actor.id,
                transactionDate,
              });
              await saveBank(client, row.id, body, audAmount);
            } else {
              const asset = ASSETS[ZAnyAssetId.parse(body.assetId)];
              const credit = body.type === 'deposit' || body.type === 'buy';
              row = await ledger.post(client, {
                userId: body.userId,
                assetId: asset.id,
                type: body.type,
                direction: credit ? 'credit' : 'debit',
                amount: parseAmount(body.cryptoAmount, asset.decimals),
                status: body.status,
                usdAmount: body.usdAmount,
                audAmount,
                withdrawalAddress: addressFor(body.type, asset.id, body.withdrawalAddress),
                transactionHash: referenceFor(false, asset.id, body.transactionHash),
                createdBy: actor.id,
                transactionDate,
              });
            }
            await confirmStepUp(client, actor, body.stepUp);
            await audit.record(client, {
              actorId: actor.id,
              action: 'transaction.create',
              targetType: 'transaction',
              targetId: row.id,
              targetUserId: row.user_id,
              before: null,
              after: await audited(client, row),
              reason: body.reason,
              ip: actor.ip,
            });
            return { status: 200, body: await view(client, row.id) };
          }),
        );
        return answer.body;
      } catch (err) {
        if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
        throw err;
      }
    },

    /**
     * An edit re-applies the row's ledger effect (old reversed, new applied) in one
     * database transaction; a status change is an edit of the status alone. Final history
     * and a payout's type and status are refused first (`refuseEdit`), on the locked row.
     */
    async update(
      actor: Actor,
      id: string,
      body: TUpdateAdminTransaction,
    ): Promise<TAdminTransaction> {
      try {
        return await withTransaction(pool, async (client) => {
          const current = await repo.findById(client, id, true);
          if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
          refuseEdit(current, body);
          await s.payouts.assertNotApproved(client, current);
          const revision = revisionOf(current, body, actor);
          refuseRedirect(current, body);
          const change = await ledger.revise(client, id, revision);
          if (body.type === 'bank_transfer') {
            const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
            // A funded payout's fiat figure is what its hold was converted from: it stays.
            const keep =
              current.direction !== 'none' && current.amount_fiat !== null
                ? { amountFiat: current.amount_fiat, currency: current.bank_currency ?? 'AUD' }
                : undefined;
            await saveBank(client, id, body, audAmount, keep);
          }
          const before = auditView(change.before, bankFacts(current));
          const after = await audited(client, change.after);
          // Who edited is in every edit; a status change is one that changes nothing else.
          const rest = (v: typeof before) =>
            JSON.stringify({ ...v, status: null, editorIds: null });
          await confirmStepUp(client, actor, body.stepUp);
          await audit.record(client, {
            actorId: actor.id,
            action: rest(before) === rest(after) ? 'transaction.status' : 'transaction.update',
            targetType: 'transaction',
            targetId: id,
            targetUserId: change.after.user_id,
            before,
            after,
            reason: body.reason,
            ip: actor.ip,
          });
          return view(client, id);
        });
      } catch (err) {
        if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
        if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
        throw err;
      }
    },

    /**
     * A deletion marks the row deleted and reverses its effect (a balance moves, so the admin's
     * step-up confirms it, as an edit's does); nothing is erased. Final
     * history is never deleted: a completed or rejected payout, or an adjustment (corrected
     * by a reversing adjustment instead).
     */
    async remove(
      actor: Actor,
      id: string,
      { reason, stepUp }: TDeleteAdminTransactionRequest,
    ): Promise<void> {
      try {
        await withTransaction(pool, async (client) => {
          const current = await repo.findById(client, id, true);
          if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
          const final = finalRowMessage(current);
          if (final) throw new AppError('CONFLICT', final);
          // A request the customer made is answered, not erased: Reject tells them why.
          if (
            PAYOUT_TYPES.has(current.transaction_type) &&
            current.created_by === current.user_id
          ) {
            throw new AppError('CONFLICT', ADMIN_TX_MSG.customerPayoutNoDelete);
          }
          const bank = bankFacts(current);
          const change = await ledger.remove(client, id, actor.id);
          await confirmStepUp(client, actor, stepUp);
          await audit.record(client, {
            actorId: actor.id,
            action: 'transaction.delete',
            targetType: 'transaction',
            targetId: id,
            targetUserId: change.after.user_id,
            before: auditView(change.before, bank),
            after: auditView(change.after, bank),
            reason,
            ip: actor.ip,
          });
        });
      } catch (err) {
        if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
        throw err;
      }
    },

    /**
     * Pays a withdrawal or bank transfer out. The reference must be what proves it left: a
     * chain transaction hash of the payout's network (kept normalised) or a bank reference.
     * Four-eyes, judged on the row locked inside the completion: neither the admin who
     * recorded the request nor anyone who ever edited it may complete it.
     */
    /**
     * Pays a withdrawal or bank transfer out by hand. A bank payout takes the bank's
     * reference, four eyes judged on the locked row. A crypto withdrawal must be approved
     * first (four eyes there); its hash is checked against the chain by the payouts module,
     * which settles it when the chain shows it paying the address exactly its amount.
     */
    async complete(
      actor: Actor,
      id: string,
      reference: string,
      stepUp: TStepUp,
    ): Promise<TAdminTransaction> {
      const record = async (
        client: pg.PoolClient,
        before: TransactionRow,
        after: TransactionRow,
      ) => {
        const bankNow =
          after.transaction_type === 'bank_transfer'
            ? bankFacts(await repo.bankAccountOf(client, id))
            : null;
        await audit.record(client, {
          actorId: actor.id,
          action: 'withdrawal.complete',
          targetType: 'transaction',
          targetId: id,
          targetUserId: after.user_id,
          before: auditView(before, bankNow),
          after: { ...auditView(after, bankNow), typedHash: reference.trim() || null },
          reason: null,
          ip: actor.ip,
        });
      };
      const current = UUID.test(id) ? await repo.findById(pool, id) : null;
      if (current?.transaction_type === 'withdrawal') {
        await s.payouts.completeByHash(actor, id, reference, stepUp, record);
        return view(pool, id);
      }
      // withdrawals.complete checks the reference's form against the locked row: the
      // network's transaction hash, or a bank's reference for a bank payout.
      await withdrawals.complete(id, {
        transactionHash: reference,
        processedBy: actor.id,
        guard: (locked) => {
          if (
            locked.created_by === actor.id ||
            locked.updated_by === actor.id ||
            locked.editor_ids.includes(actor.id)
          ) {
            throw new AppError('FORBIDDEN', ADMIN_TX_MSG.fourEyes);
          }
        },
        // A crypto withdrawal that became one after this read is refused here.
        check: (client, locked) => s.payouts.assertOffChain(client, locked, true),
        record: async (client, before, after) => {
          await confirmStepUp(client, actor, stepUp);
          await record(client, before, after);
        },
      });
      return view(pool, id);
    },

    /** Four eyes: another admin approves a crypto withdrawal for payment on chain. */
    async approve(actor: Actor, id: string, stepUp: TStepUp): Promise<TAdminTransaction> {
      await s.payouts.approve(actor, id, stepUp);
      return view(pool, id);
    },

    /** Refuses a payout: the hold is released and the customer is told why. */
    async reject(
      actor: Actor,
      id: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<TAdminTransaction> {
      await withdrawals.reject(id, {
        reason,
        processedBy: actor.id,
        // Once a batch may pay it, the chain decides: never rejected then. Before that, the
        // approval goes with the rejection.
        check: (client, locked) => s.payouts.beforeReject(client, locked),
        record: async (client, before, after) => {
          await confirmStepUp(client, actor, stepUp);
          await audit.record(client, {
            actorId: actor.id,
            action: 'withdrawal.reject',
            targetType: 'transaction',
            targetId: id,
            targetUserId: after.user_id,
            before: await audited(client, before),
            after: await audited(client, after),
            reason,
            ip: actor.ip,
          });
        },
      });
      return view(pool, id);
    },
  };
}

export type AdminTransactionsService = ReturnType<typeof createAdminTransactionsService>;

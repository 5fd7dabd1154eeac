import {
  ADMIN_AUD_PER_USD,
  ADMIN_TRANSACTION_TYPES,
  ADMIN_TX_MSG,
  ALL_ASSET_IDS,
  ASSETS,
  assetById,
  convertFiat,
  parseAmount,
  type TAdminTransaction,
  type TAdminTransactionSummary,
  type TAdminTransactionsResponse,
  type TCreateAdminTransaction,
  type TUpdateAdminTransaction,
  validateAddress,
  ZAnyAssetId,
  ZTransactionType,
} from '@coffer/shared';
import type pg from 'pg';
import type { Services } from '../../app-services';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Revision, TransactionRow } from '../ledger';
import { requestHash, runOnce, trimDecimal, usdShown } from '../ledger';
import {
  type AdminTransactionListRow,
  type AdminTransactionRow,
  type ListFilters,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';

const CREATE_ROUTE = 'POST /api/admin/transactions';
const PAYOUT_TYPES: ReadonlySet<string> = new Set(['withdrawal', 'bank_transfer']);
const ADMIN_TYPES: ReadonlySet<string> = new Set(ADMIN_TRANSACTION_TYPES);
const PENDING_LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who acts, and from where: the audit row's actor and address. */
export type Actor = { id: string; ip: string | null };

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

/** USD × 1.52, to the cent: the AUD figure when staff leave it empty (admin.md §9). */
function audOf(usd: string): string {
  return convertFiat(usd, ADMIN_AUD_PER_USD, 'aud-to-usd');
}

/** What the audit log keeps of a row: the money and its state, no account details. */
function auditView(row: TransactionRow) {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    amount: trimDecimal(row.crypto_amount),
    fee: trimDecimal(row.fee),
    usdAmount: row.usd_amount,
    audAmount: row.aud_amount,
    currency: row.currency,
    status: row.status,
    date: row.transaction_date.toISOString(),
    withdrawalAddress: row.withdrawal_address,
    transactionHash: row.transaction_hash,
    deleted: row.deleted_at !== null,
  };
}

/** pg's unique violation on the deposit hash index: the chain deposit is already credited. */
function isDuplicateDeposit(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    err.code === '23505' &&
    'constraint' in err &&
    err.constraint === 'transactions_deposit_hash_key'
  );
}

const DUPLICATE_DEPOSIT = 'This chain transaction was already credited as a deposit.';

/** Transactions and withdrawal processing for staff (admin.md §2.2, DEVIATIONS M7). */
export function createAdminTransactionsService(s: Services) {
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
    const bank =
      row.account_name_encrypted && row.account_number_encrypted && row.bsb_number_encrypted
        ? {
            // Staff process the transfer, so they read the account it goes to.
            accountName: secrets.decrypt(row.account_name_encrypted),
            accountNumber: secrets.decrypt(row.account_number_encrypted),
            bsbNumber: secrets.decrypt(row.bsb_number_encrypted),
            amountFiat: row.amount_fiat ?? '0',
            currency: row.bank_currency ?? 'AUD',
          }
        : null;
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

  async function view(db: pg.Pool | pg.PoolClient, id: string): Promise<TAdminTransaction> {
    const row = await repo.findById(db, id);
    if (!row) throw new AppError('NOT_FOUND', 'Transaction not found.');
    return present(row);
  }

  /** The bank_transfers row of a bank transfer, account details encrypted at rest. */
  async function saveBank(
    client: pg.PoolClient,
    transactionId: string,
    body: Pick<TCreateAdminTransaction, 'bank' | 'usdAmount'>,
    audAmount: string,
  ) {
    const bank = body.bank;
    if (!bank) throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.bankDetailsRequired);
    await repo.insertBankTransfer(client, {
      transactionId,
      accountNameEncrypted: secrets.encrypt(bank.accountName),
      accountNumberEncrypted: secrets.encrypt(bank.accountNumber),
      bsbNumberEncrypted: secrets.encrypt(bank.bsbNumber),
      amountFiat: bank.currency === 'USD' ? body.usdAmount : audAmount,
      currency: bank.currency,
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
   * Four-eyes (DEVIATIONS M7): money leaves only when a second admin completes what the
   * first recorded, so neither an Add nor an Edit may complete a payout.
   */
  function refuseSelfCompletedPayout(type: string, status: string, before?: TransactionRow): void {
    if (!PAYOUT_TYPES.has(type) || status !== 'completed') return;
    if (before && PAYOUT_TYPES.has(before.transaction_type) && before.status === 'completed')
      return;
    throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutPending);
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
      return (await repo.pendingPayouts(pool, PENDING_LIMIT)).map(present);
    },

    async create(
      actor: Actor,
      body: TCreateAdminTransaction,
      idempotencyKey: string | undefined,
    ): Promise<TAdminTransaction> {
      const hash = requestHash(CREATE_ROUTE, body);
      try {
        const answer = await withTransaction(pool, (client) =>
          runOnce(client, { userId: actor.id, key: idempotencyKey, hash }, async () => {
            refuseSelfCompletedPayout(body.type, body.status);
            if (!(await repo.customerExists(client, body.userId))) {
              throw new AppError('NOT_FOUND', 'Customer not found.');
            }
            const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
            const transactionDate = new Date(body.transactionDate);
            const transactionHash = body.transactionHash === '' ? null : body.transactionHash;
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
                transactionHash,
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
                transactionHash,
                createdBy: actor.id,
                transactionDate,
              });
            }
            await audit.record(client, {
              actorId: actor.id,
              action: 'transaction.create',
              targetType: 'transaction',
              targetId: row.id,
              targetUserId: row.user_id,
              before: null,
              after: auditView(row),
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
     * database transaction; a status change is an edit of the status alone.
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
          if (!ADMIN_TYPES.has(current.transaction_type)) {
            throw new AppError(
              'CONFLICT',
              'Staking rewards and balance adjustments cannot be edited. Record a new transaction instead.',
            );
          }
          const wasBank = current.transaction_type === 'bank_transfer';
          if (wasBank !== (body.type === 'bank_transfer')) {
            throw new AppError(
              'CONFLICT',
              'A bank transfer cannot become a crypto transaction or the reverse. Delete it and add a new one.',
            );
          }
          refuseSelfCompletedPayout(body.type, body.status, current);
          const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
          const bank = body.type === 'bank_transfer';
          const asset = bank ? null : ASSETS[ZAnyAssetId.parse(body.assetId)];
          const credit = body.type === 'deposit' || body.type === 'buy';
          const revision: Revision = {
            type: body.type,
            direction: asset ? (credit ? 'credit' : 'debit') : 'none',
            assetId: asset ? asset.id : (body.bank?.currency ?? current.asset_id),
            amount: asset ? parseAmount(body.cryptoAmount, asset.decimals) : 0n,
            usdAmount: body.usdAmount,
            audAmount,
            currency: asset ? (current.currency ?? 'USD') : (body.bank?.currency ?? 'AUD'),
            status: body.status,
            transactionDate: new Date(body.transactionDate),
            withdrawalAddress: asset
              ? addressFor(body.type, asset.id, body.withdrawalAddress)
              : null,
            transactionHash: body.transactionHash === '' ? null : body.transactionHash,
            updatedBy: actor.id,
          };
          const change = await ledger.revise(client, id, revision);
          if (bank) await saveBank(client, id, body, audAmount);
          const statusOnly =
            JSON.stringify({ ...auditView(change.before), status: change.after.status }) ===
            JSON.stringify(auditView(change.after));
          await audit.record(client, {
            actorId: actor.id,
            action: statusOnly ? 'transaction.status' : 'transaction.update',
            targetType: 'transaction',
            targetId: id,
            targetUserId: change.after.user_id,
            before: auditView(change.before),
            after: auditView(change.after),
            reason: body.reason,
            ip: actor.ip,
          });
          return view(client, id);
        });
      } catch (err) {
        if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
        throw err;
      }
    },

    /** A deletion marks the row deleted and reverses its effect; nothing is erased. */
    async remove(actor: Actor, id: string, reason: string): Promise<void> {
      await withTransaction(pool, async (client) => {
        const change = await ledger.remove(client, id, actor.id);
        await audit.record(client, {
          actorId: actor.id,
          action: 'transaction.delete',
          targetType: 'transaction',
          targetId: id,
          targetUserId: change.after.user_id,
          before: auditView(change.before),
          after: auditView(change.after),
          reason,
          ip: actor.ip,
        });
      });
    },

    /**
     * Pays a withdrawal or bank transfer out. Four-eyes: the admin who recorded or last
     * edited the request cannot complete it.
     */
    async complete(actor: Actor, id: string, reference: string): Promise<TAdminTransaction> {
      await withdrawals.complete(id, {
        transactionHash: reference,
        processedBy: actor.id,
        guard: (row) => {
          if (row.created_by === actor.id || row.updated_by === actor.id) {
            throw new AppError('FORBIDDEN', ADMIN_TX_MSG.fourEyes);
          }
        },
        record: async (client, before, after) => {
          await audit.record(client, {
            actorId: actor.id,
            action: 'withdrawal.complete',
            targetType: 'transaction',
            targetId: id,
            targetUserId: after.user_id,
            before: auditView(before),
            after: auditView(after),
            reason: null,
            ip: actor.ip,
          });
        },
      });
      return view(pool, id);
    },

    /** Refuses a payout: the hold is released and the customer is told why. */
    async reject(actor: Actor, id: string, reason: string): Promise<TAdminTransaction> {
      await withdrawals.reject(id, {
        reason,
        processedBy: actor.id,
        record: async (client, before, after) => {
          await audit.record(client, {
            actorId: actor.id,
            action: 'withdrawal.reject',
            targetType: 'transaction',
            targetId: id,
            targetUserId: after.user_id,
            before: auditView(before),
            after: auditView(after),
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

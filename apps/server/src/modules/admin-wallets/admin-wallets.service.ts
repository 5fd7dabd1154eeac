import {
  ADMIN_ADDRESS_LIST_LIMIT,
  ADMIN_MAX_WHOLE_DIGITS,
  ADMIN_WALLET_MSG,
  AmountError,
  amountMessages,
  assetById,
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  type TAdjustWalletBalanceRequest,
  type TAdjustWalletBalanceResponse,
  type TAdminDepositAddress,
  type TAdminDepositAddressesResponse,
  type TAdminWallet,
  type TAsset,
  type TCreateDepositAddressRequest,
  type TStepUp,
  type TUpdateDepositAddressRequest,
  validateNetworkAddress,
  withoutStepUp,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import { type Ledger, presentTransaction, requestHash, runOnce } from '../ledger';
import type { PriceBook } from '../prices';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  type AdminDepositAddressRow,
  type AdminWalletRow,
  adminWalletsRepository as repo,
} from './admin-wallets.repository';

const BALANCE_ROUTE = 'POST /api/admin/wallets/:id/balance';

/**
 * Who acted and from where, for the audit row; the session and client whose fresh second
 * factor confirms a change that moves money or stops deposits (step-up).
 */
export type Actor = {
  adminId: string;
  ip: string | null;
  session: StepUpSubject;
  client: Client;
};

type Deps = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: { current(): PriceBook };
  audit: AuditLog;
  stepUp: StepUp;
};

function walletAsset(row: AdminWalletRow): TAsset {
  const asset = assetById(row.asset_id);
  if (!asset) throw new Error(`wallet ${row.id} holds an unknown asset ${row.asset_id}`);
  return asset;
}

function presentAddress(row: AdminDepositAddressRow): TAdminDepositAddress {
  return {
    id: row.id,
    userId: row.user_id,
    assetSymbol: row.asset_symbol,
    network: row.network,
    address: row.address,
    isActive: row.is_active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    user: {
      id: row.user_id,
      email: row.email,
      fullName: row.full_name,
      username: row.username,
    },
  };
}

/** What the audit log keeps of an address: its fields, not the customer's profile. */
function addressFacts(row: AdminDepositAddressRow) {
  return {
    userId: row.user_id,
    assetSymbol: row.asset_symbol,
    network: row.network,
    address: row.address,
    isActive: row.is_active,
  };
}

/** The network's rule, and the address in the form that rule keeps (bech32 lower-cased). */
function checkedAddress(network: string, address: string): string {
  const result = validateNetworkAddress(network, address);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.address;
}

/** Postgres' unique-violation code: a concurrent insert took the address first. */
function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

/**
 * Wallet management and deposit addresses. Balances change only
 * through the ledger: a balance edit posts an `adjustment` for the difference (docs/product.md
 * M7). Every action writes its audit row last, in its own database transaction.
 */
export function createAdminWalletsService(deps: Deps) {
  function presentWallet(row: AdminWalletRow): TAdminWallet {
    const asset = walletAsset(row);
    const balance = parseAmount(row.balance_crypto, asset.decimals);
    const held = parseAmount(row.held, asset.decimals);
    return {
      id: row.id,
      userId: row.user_id,
      assetId: asset.id,
      symbol: asset.symbol,
      name: asset.name,
      network: row.network,
      decimals: asset.decimals,
      nickname: row.nickname,
      address: row.wallet_address,
      balance: fromMinor(asset.id, balance),
      held: fromMinor(asset.id, held),
      available: fromMinor(asset.id, balance - held),
      usdValue: mulPrice(balance, asset.decimals, deps.prices.current().quotes[asset.id].priceUsd),
      isActive: row.is_active,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async function requireUser(db: pg.Pool | TxClient, userId: string): Promise<void> {
    if (!(await repo.userExists(db, userId))) {
      throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.userNotFound);
    }
  }

  async function lockWallet(client: TxClient, id: string): Promise<AdminWalletRow> {
    const row = await repo.lockWallet(client, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.walletNotFound);
    return row;
  }

  async function lockAddress(client: TxClient, id: string): Promise<AdminDepositAddressRow> {
    const row = await repo.addressById(client, id, true);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.depositAddressNotFound);
    return row;
  }

  async function assertAddressFree(client: TxClient, address: string, exceptId: string | null) {
    if (await repo.addressOwner(client, address, exceptId)) {
      throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
    }
  }

  /** The new balance in the asset's minor units, or the message the admin reads. */
  function parseNewBalance(value: string, asset: TAsset): bigint {
    const messages = {
      ...amountMessages(asset.decimals, asset.symbol),
      REQUIRED: ADMIN_WALLET_MSG.invalidBalance,
      INVALID: ADMIN_WALLET_MSG.invalidBalance,
      NEGATIVE: ADMIN_WALLET_MSG.invalidBalance,
      TOO_MANY_DECIMALS: `${asset.symbol} balances can have at most ${asset.decimals} decimal places.`,
      TOO_LARGE: ADMIN_WALLET_MSG.balanceTooLarge,
    };
    let minor: bigint;
    try {
      minor = parseAmount(value, asset.decimals, messages);
    } catch (err) {
      if (err instanceof AmountError) throw new AppError('VALIDATION_FAILED', err.message);
      throw err;
    }
    // The column holds 20 whole digits (numeric(38, 18)); a balance near that leaves no room
    // for the next credit, so staff may set 15 at most, as an admin transaction may record.
    if (minor >= 10n ** BigInt(ADMIN_MAX_WHOLE_DIGITS + asset.decimals)) {
      throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceTooLarge);
    }
    return minor;
  }

  /** The adjustment's USD value, refused when it would not fit a fiat column. */
  function usdValueOf(amount: bigint, asset: TAsset): string {
    const usd = mulPrice(amount, asset.decimals, deps.prices.current().quotes[asset.id].priceUsd);
    const whole = usd.split('.')[0] ?? '';
    if (whole.length > ADMIN_MAX_WHOLE_DIGITS) {
      throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceValueTooLarge);
    }
    return usd;
  }

  return {
    async walletsOf(userId: string): Promise<TAdminWallet[]> {
      await requireUser(deps.pool, userId);
      return (await repo.walletsOf(deps.pool, userId)).map(presentWallet);
    },

    async updateWalletAddress(
      actor: Actor,
      walletId: string,
      input: string,
    ): Promise<TAdminWallet> {
      return withTransaction(deps.pool, async (client) => {
        const before = await lockWallet(client, walletId);
        const address = checkedAddress(before.network, input);
        const after = await repo.setWalletAddress(client, walletId, address);
        await deps.audit.record(client, {
          actorId: actor.adminId,
          action: 'wallet.address.update',
          targetType: 'wallet',
          targetId: walletId,
          targetUserId: before.user_id,
          before: { assetId: before.asset_id, address: before.wallet_address },
          after: { assetId: after.asset_id, address: after.wallet_address },
          ip: actor.ip,
        });
        return presentWallet(after);
      });
    },

    /**
     * A balance "edit" (product.md M7): one completed `adjustment`, credit or debit, for the
     * difference between the balance now and the one asked for, posted through the ledger
     * with the wallet locked. A balance below what pending withdrawals hold is refused.
     */
    async adjustBalance(
      actor: Actor,
      walletId: string,
      body: TAdjustWalletBalanceRequest,
      idempotencyKey: string | undefined,
    ): Promise<TAdjustWalletBalanceResponse> {
      // A retry of the same request carries a new code: the key stands for the rest.
      const hash = requestHash(BALANCE_ROUTE, { walletId, ...withoutStepUp(body) });
      const answer = await withTransaction(deps.pool, (client) =>
        runOnce(client, { userId: actor.adminId, key: idempotencyKey, hash }, async () => {
          const before = await lockWallet(client, walletId);
          const asset = walletAsset(before);
          const wanted = parseNewBalance(body.newBalance, asset);
          const balance = parseAmount(before.balance_crypto, asset.decimals);
          const held = parseAmount(before.held, asset.decimals);
          if (wanted < held) {
            const shown = formatAmount(held, asset.decimals);
            throw new AppError(
              'VALIDATION_FAILED',
              `The balance cannot be set below ${shown} ${asset.symbol}: that much is held for pending withdrawals.`,
            );
          }
          const difference = wanted - balance;
          if (difference === 0n) {
            throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceUnchanged);
          }
          const amount = difference > 0n ? difference : -difference;
          const row = await deps.ledger.post(client, {
            userId: before.user_id,
            assetId: asset.id,
            type: 'adjustment',
            direction: difference > 0n ? 'credit' : 'debit',
            amount,
            status: 'completed',
            usdAmount: usdValueOf(amount, asset),
            reason: body.reason,
            createdBy: actor.adminId,
          });
          const after = await repo.walletById(client, walletId);
          if (!after) throw new Error(`wallet ${walletId} vanished`);
          await deps.stepUp.confirm(client, actor.session, body.stepUp, actor.client);
          await deps.audit.record(client, {
            actorId: actor.adminId,
            action: 'wallet.balance.adjust',
            targetType: 'wallet',
            targetId: walletId,
            targetUserId: before.user_id,
            before: {
              assetId: asset.id,
              balance: fromMinor(asset.id, balance),
              held: fromMinor(asset.id, held),
            },
            after: {
              assetId: asset.id,
              balance: fromMinor(asset.id, wanted),
              transactionId: row.id,
              direction: row.direction,
              amount: fromMinor(asset.id, amount),
            },
            reason: body.reason,
            ip: actor.ip,
          });
          return {
            status: 200,
            body: { wallet: presentWallet(after), transaction: presentTransaction(row) },
          };
        }),
      );
      return answer.body;
    },

    async listAddresses(q: string | undefined): Promise<TAdminDepositAddressesResponse> {
      const { rows, total } = await repo.listAddresses(
        deps.pool,
        q ? q : undefined,
        ADMIN_ADDRESS_LIST_LIMIT,
      );
      return { addresses: rows.map(presentAddress), total };
    },

    async addressesOf(userId: string): Promise<TAdminDepositAddress[]> {
      await requireUser(deps.pool, userId);
      return (await repo.addressesOf(deps.pool, userId)).map(presentAddress);
    },

    async createAddress(
      actor: Actor,
      body: TCreateDepositAddressRequest,
    ): Promise<TAdminDepositAddress> {
      try {
        return await withTransaction(deps.pool, async (client) => {
          await requireUser(client, body.userId);
          const address = checkedAddress(body.network, body.address);
          await assertAddressFree(client, address, null);
          const id = await repo.insertAddress(client, {
            userId: body.userId,
            assetSymbol: body.assetSymbol,
            network: body.network,
            address,
            isActive: body.isActive ?? true,
          });
          const row = await repo.addressById(client, id);
          if (!row) throw new Error(`deposit address ${id} vanished`);
          await deps.audit.record(client, {
            actorId: actor.adminId,
            action: 'deposit_address.create',
            targetType: 'deposit_address',
            targetId: id,
            targetUserId: body.userId,
            after: addressFacts(row),
            ip: actor.ip,
          });
          return presentAddress(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
        throw err;
      }
    },

    async updateAddress(
      actor: Actor,
      id: string,
      body: TUpdateDepositAddressRequest,
    ): Promise<TAdminDepositAddress> {
      try {
        return await withTransaction(deps.pool, async (client) => {
          const before = await lockAddress(client, id);
          const network = body.network ?? before.network;
          const address = checkedAddress(network, body.address ?? before.address);
          await assertAddressFree(client, address, id);
          await repo.updateAddress(client, id, {
            assetSymbol: body.assetSymbol ?? before.asset_symbol,
            network,
            address,
            isActive: body.isActive ?? before.is_active,
          });
          const after = await repo.addressById(client, id);
          if (!after) throw new Error(`deposit address ${id} vanished`);
          await deps.audit.record(client, {
            actorId: actor.adminId,
            action: 'deposit_address.update',
            targetType: 'deposit_address',
            targetId: id,
            targetUserId: before.user_id,
            before: addressFacts(before),
            after: addressFacts(after),
            ip: actor.ip,
          });
          return presentAddress(after);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
        throw err;
      }
    },

    async deleteAddress(actor: Actor, id: string, stepUp: TStepUp): Promise<void> {
      await withTransaction(deps.pool, async (client) => {
        const before = await lockAddress(client, id);
        await repo.deleteAddress(client, id);
        await deps.stepUp.confirm(client, actor.session, stepUp, actor.client);
        await deps.audit.record(client, {
          actorId: actor.adminId,
          action: 'deposit_address.delete',
          targetType: 'deposit_address',
          targetId: id,
          targetUserId: before.user_id,
          before: addressFacts(before),
          ip: actor.ip,
        });
      });
    },
  };
}

export type AdminWalletsService = ReturnType<typeof createAdminWalletsService>;

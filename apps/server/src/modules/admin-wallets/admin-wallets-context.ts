import {
  ADMIN_WALLET_MSG,
  fromMinor,
  mulPrice,
  type TAdminDepositAddress,
  type TAdminWallet,
  validateNetworkAddress,
} from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { AddressRequests } from '../deposits';
import type { Ledger } from '../ledger';
import type { PriceBook } from '../prices';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  type AdminDepositAddressRow,
  type AdminWallet,
  adminWalletsRepository as repo,
} from './admin-wallets.repository';

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

/**
 * What the parts of the admin wallets service share, built once by
 * `createAdminWalletsService`: the ledger every balance edit posts through, the prices a
 * wallet is valued at, the audit log, the step-up and the customers' address requests.
 */
export type AdminWalletsContext = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: { current(): PriceBook };
  audit: AuditLog;
  stepUp: StepUp;
  /**
   * Customers' requests for an address: listed for staff, fulfilled by the address added;
   * and the announcement that a customer's addresses changed.
   */
  addressRequests: AddressRequests;
};

export function presentWallet(ctx: AdminWalletsContext, wallet: AdminWallet): TAdminWallet {
  const { asset, balance, held } = wallet;
  return {
    id: wallet.id,
    userId: wallet.user_id,
    assetId: asset.id,
    symbol: asset.symbol,
    name: asset.name,
    network: wallet.network,
    decimals: asset.decimals,
    nickname: wallet.nickname,
    address: wallet.wallet_address,
    balance: fromMinor(asset.id, balance),
    held: fromMinor(asset.id, held),
    available: fromMinor(asset.id, balance - held),
    usdValue: mulPrice(balance, asset.decimals, ctx.prices.current().quotes[asset.id].priceUsd),
    isActive: wallet.is_active,
    updatedAt: wallet.updated_at.toISOString(),
  };
}

export function presentAddress(row: AdminDepositAddressRow): TAdminDepositAddress {
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
export function addressFacts(row: AdminDepositAddressRow) {
  return {
    userId: row.user_id,
    assetSymbol: row.asset_symbol,
    network: row.network,
    address: row.address,
    isActive: row.is_active,
  };
}

/** The network's rule, and the address in the form that rule keeps (bech32 lower-cased). */
export function checkedAddress(network: string, address: string): string {
  const result = validateNetworkAddress(network, address);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.address;
}

/** Postgres' unique-violation code: a concurrent insert took the address first. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

export async function requireUser(db: pg.Pool | TxClient, userId: string): Promise<void> {
  if (!(await repo.userExists(db, userId))) {
    throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.userNotFound);
  }
}

export async function lockWallet(client: TxClient, id: string): Promise<AdminWallet> {
  const wallet = await repo.lockWallet(client, id);
  if (!wallet) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.walletNotFound);
  return wallet;
}

export async function lockAddress(client: TxClient, id: string): Promise<AdminDepositAddressRow> {
  const row = await repo.addressById(client, id, true);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.depositAddressNotFound);
  return row;
}

export async function assertAddressFree(
  client: TxClient,
  address: string,
  exceptId: string | null,
): Promise<void> {
  if (await repo.addressOwner(client, address, exceptId)) {
    throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
  }
}

/**
 * An address staff added or changed answers the customer's open request for its asset when it
 * is active (deposits' side: the request, the mail, the audit row), on the same transaction.
 */
export function fulfilRequestWith(
  ctx: AdminWalletsContext,
  client: TxClient,
  row: AdminDepositAddressRow,
  actor: Actor,
): Promise<boolean> {
  return ctx.addressRequests.fulfil(client, {
    userId: row.user_id,
    assetSymbol: row.asset_symbol,
    network: row.network,
    isActive: row.is_active,
    depositAddressId: row.id,
    adminId: actor.adminId,
    ip: actor.ip,
  });
}

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
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { AddressRequests } from '../deposits';
import type { Ledger } from '../ledger';
import type { Outbox } from '../outbox';
import type { PriceBook } from '../prices';
import type { StaffActor, StaffChanges } from '../staff-changes';
import type { StepUp } from '../step-up';
import {
  type AdminDepositAddressRow,
  type AdminWallet,
  adminWalletsRepository as repo,
} from './admin-wallets.repository';

/** The staff member proposing or approving, with their roles, address and session. */
export type Actor = StaffActor;

/**
 * What the parts of the admin wallets service share, built once by
 * `createAdminWalletsService`: the ledger every balance edit posts through, the prices a
 * wallet is valued at, the audit log, the step-up, the two-person changes every balance and
 * address change goes through, the outbox that mails the customer when one applies, and the
 * customers' address requests.
 */
export type AdminWalletsContext = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: { current(): PriceBook };
  audit: AuditLog;
  stepUp: StepUp;
  /** Balance and address changes are proposed here and applied when another approves them. */
  changes: StaffChanges;
  /** The customer's mail naming a change that applied, queued on the approval's transaction. */
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  /** Where the mails' links point. */
  publicUrl: string;
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
  await emailOf(db, userId);
}

/** A user's e-mail: how a change names its customer, and where their mail goes. */
export async function emailOf(db: pg.Pool | TxClient, userId: string): Promise<string> {
  const email = await repo.userEmail(db, userId);
  if (email === null) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.userNotFound);
  return email;
}

export async function findWallet(db: pg.Pool | TxClient, id: string): Promise<AdminWallet> {
  const wallet = await repo.walletById(db, id);
  if (!wallet) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.walletNotFound);
  return wallet;
}

export async function lockWallet(client: TxClient, id: string): Promise<AdminWallet> {
  const wallet = await repo.lockWallet(client, id);
  if (!wallet) throw new AppError('NOT_FOUND', ADMIN_WALLET_MSG.walletNotFound);
  return wallet;
}

export async function lockAddress(
  client: TxClient,
  id: string,
  lock = true,
): Promise<AdminDepositAddressRow> {
  const row = await repo.addressById(client, id, lock);
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
 * Whether an address's facts equal those a proposal stored (read back from JSON, keys in
 * any order): an approval applies only to the address its approver was shown.
 */
export function sameFacts(a: ReturnType<typeof addressFacts>, b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const other = b as Record<string, unknown>;
  return (Object.keys(a) as (keyof typeof a)[]).every((k) => a[k] === other[k]);
}

/** How a change names an address to its approver: asset, network and the address itself. */
export function addressLabel(f: { assetSymbol: string; network: string; address: string }) {
  return `${f.assetSymbol} (${f.network}) deposit address ${f.address}`;
}

/**
 * An address staff added or changed answers the customer's open request for its asset when it
 * is active (deposits' side: the request, the mail, the audit row), on the approval's
 * transaction; the approver is who fulfilled it.
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
    adminId: actor.userId,
    ip: actor.ip,
  });
}

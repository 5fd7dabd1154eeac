import {
  ASSETS,
  CUSTOMER_ASSET_IDS,
  DEPOSIT_REQUEST_MSG,
  depositAssetTitle,
  MONEY_MSG,
  type TAdminAddressRequest,
  type TAssetId,
  type TDepositAddressRequest,
  type TRequestableAsset,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { chainOfAsset, configuredChains } from '../chains';
import {
  type AddressRequest,
  addressRequestsRepository as repo,
} from './address-requests.repository';
import { depositsRepository } from './deposits.repository';
import type { DepositsContext } from './deposits-context';
import { walletOfAddress, walletsServed } from './wallet-of-address';

/**
 * Deposit address requests (the `deposit_address_requests` table): on a chain Coffer does not
 * watch no address can be derived, so the customer asks and staff add one. Adding it
 * fulfils the request, mails the customer and writes an audit row, all in staff's own
 * transaction.
 */

function present(r: AddressRequest): TDepositAddressRequest {
  return {
    id: r.id,
    assetId: r.assetId,
    network: r.network,
    requestedAt: r.requestedAt.toISOString(),
  };
}

/** True when the asset's chain is configured: its addresses are derived, never asked for. */
function isWatched(ctx: DepositsContext, assetId: TAssetId): boolean {
  const chain = chainOfAsset(assetId);
  return configuredChains(ctx.chains).some((c) => c.chain === chain);
}

/**
 * The wallets the deposit page offers to ask for: no address listed for them, on a chain
 * Coffer does not watch; each with the customer's open request, if any.
 */
export async function requestableAssets(
  ctx: DepositsContext,
  userId: string,
  listed: ReadonlySet<TAssetId>,
): Promise<TRequestableAsset[]> {
  const missing = CUSTOMER_ASSET_IDS.filter((id) => !listed.has(id) && !isWatched(ctx, id));
  if (missing.length === 0) return [];
  const open = await repo.openOfUser(ctx.pool, userId);
  return missing.map((assetId) => {
    const request = open.find((r) => r.assetId === assetId);
    return {
      assetId,
      network: ASSETS[assetId].network,
      request: request ? present(request) : null,
    };
  });
}

/**
 * POST /api/deposit-address-requests: the customer asks staff for an address of an asset.
 * A second ask (parallel ones too) answers with the request already open; an asset whose
 * chain is watched, or one the customer already has an address for, is refused.
 */
export async function requestAddress(
  ctx: DepositsContext,
  userId: string,
  assetId: TAssetId,
): Promise<TDepositAddressRequest> {
  const settings = await ctx.controls.current();
  if (!settings.depositsEnabled) throw new AppError('SERVICE_DISABLED', MONEY_MSG.depositsPaused);
  if (isWatched(ctx, assetId)) throw new AppError('CONFLICT', DEPOSIT_REQUEST_MSG.watched(assetId));
  return withTransaction(ctx.pool, async (client) => {
    await repo.lockCustomerAsset(client, userId, assetId);
    const rows = await depositsRepository.activeAddresses(client, userId);
    if (walletsServed(rows).has(assetId)) {
      throw new AppError('CONFLICT', DEPOSIT_REQUEST_MSG.haveAddress(assetId));
    }
    const already = await repo.openOf(client, userId, assetId);
    if (already) return present(already);
    const open = await repo.insert(client, userId, assetId, ASSETS[assetId].network);
    if (!open) throw new Error(`no open ${assetId} address request after storing one`);
    // Staff's list of requests shows it at once.
    await announceAddresses(ctx, client, userId);
    return present(open);
  });
}

/** Every open request with its customer, oldest first: the Deposit Addresses screen's list. */
export async function openRequests(pool: pg.Pool): Promise<TAdminAddressRequest[]> {
  return (await repo.openWithOwners(pool)).map((r) => ({
    ...present(r),
    user: { id: r.userId, ...r.owner },
  }));
}

/**
 * Tells the customer's screens and staff's that the customer's addresses or requests
 * changed, once the transaction commits; each reads them again through the API.
 */
export function announceAddresses(
  ctx: DepositsContext,
  client: TxClient,
  userId: string,
): Promise<void> {
  return ctx.realtime.publish(client, { type: 'addresses.changed', userId });
}

/** What staff added: an address of a customer, and who did it from where. */
export type AddedAddress = {
  userId: string;
  assetSymbol: string;
  network: string;
  isActive: boolean;
  depositAddressId: string;
  adminId: string;
  ip: string | null;
};

/** The customer's mail: the address is ready on the deposit page. It never holds the address. */
export function addressReadyMail(
  assetId: TAssetId,
  publicUrl: string,
): { subject: string; text: string } {
  const title = depositAssetTitle(assetId);
  return {
    subject: `Your ${title} deposit address is ready`,
    text: [
      `Your ${title} deposit address is ready.`,
      '',
      `Open your deposit page to copy it: ${publicUrl}/dashboard/deposit`,
      '',
      'For your safety this mail does not show the address. Always copy it from your deposit page.',
    ].join('\n'),
  };
}

/**
 * Called on staff's transaction when they add (or switch on) an address: an active address
 * of a customer wallet fulfils the customer's open request for that asset, mails them and
 * writes the audit row. False when there was none to fulfil.
 */
export async function fulfilRequest(
  ctx: DepositsContext,
  client: TxClient,
  added: AddedAddress,
): Promise<boolean> {
  if (!added.isActive) return false;
  const assetId = walletOfAddress(added.assetSymbol, added.network);
  if (assetId === null) return false;
  await repo.lockCustomerAsset(client, added.userId, assetId);
  const done = await repo.fulfil(client, {
    userId: added.userId,
    assetId,
    adminId: added.adminId,
    depositAddressId: added.depositAddressId,
  });
  if (!done) return false;
  await ctx.outbox.mail(client, { to: done.email, ...addressReadyMail(assetId, ctx.publicUrl) });
  await ctx.audit.record(client, {
    actorId: added.adminId,
    action: 'deposit_address_request.fulfil',
    targetType: 'deposit_address_request',
    targetId: done.id,
    targetUserId: done.userId,
    after: {
      assetId,
      network: done.network,
      requestedAt: done.requestedAt.toISOString(),
      depositAddressId: added.depositAddressId,
    },
    ip: added.ip,
  });
  return true;
}

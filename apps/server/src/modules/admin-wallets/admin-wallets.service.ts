import type {
  TAdjustWalletBalanceRequest,
  TCreateDepositAddressRequest,
  TStepUp,
  TUpdateDepositAddressRequest,
} from '@coffer/shared';
import { adjustBalance } from './adjust-balance';
import type { Actor, AdminWalletsContext } from './admin-wallets-context';
import { createAddress } from './create-address';
import { deleteAddress } from './delete-address';
import { addressesOf, listAddresses, walletsOf } from './list-wallets';
import { updateAddress } from './update-address';
import { updateWalletAddress } from './update-wallet-address';

/**
 * Wallet management and deposit addresses, composed: each use case is its own file taking
 * the shared context (`admin-wallets-context.ts`). Balances change only through the ledger:
 * a balance edit posts an `adjustment` for the difference (docs/product.md M7). Every action
 * writes its audit row last, in its own database transaction.
 */

export type { Actor } from './admin-wallets-context';

export function createAdminWalletsService(ctx: AdminWalletsContext) {
  return {
    walletsOf: (userId: string) => walletsOf(ctx, userId),

    updateWalletAddress: (actor: Actor, walletId: string, input: string) =>
      updateWalletAddress(ctx, actor, walletId, input),

    adjustBalance: (
      actor: Actor,
      walletId: string,
      body: TAdjustWalletBalanceRequest,
      idempotencyKey: string | undefined,
    ) => adjustBalance(ctx, actor, walletId, body, idempotencyKey),

    listAddresses: (q: string | undefined) => listAddresses(ctx, q),

    /** Customers' open requests for an address, oldest first. */
    addressRequests: () => ctx.addressRequests.open(),

    addressesOf: (userId: string) => addressesOf(ctx, userId),

    createAddress: (actor: Actor, body: TCreateDepositAddressRequest) =>
      createAddress(ctx, actor, body),

    updateAddress: (actor: Actor, id: string, body: TUpdateDepositAddressRequest) =>
      updateAddress(ctx, actor, id, body),

    deleteAddress: (actor: Actor, id: string, stepUp: TStepUp) =>
      deleteAddress(ctx, actor, id, stepUp),
  };
}

export type AdminWalletsService = ReturnType<typeof createAdminWalletsService>;

import type {
  TAdjustWalletBalanceRequest,
  TStepUp,
  TUpdateDepositAddressRequest,
  ZCreateDepositAddressRequest,
} from '@coffer/shared';
import type { z } from 'zod';
import { balanceChangeKind, proposeBalance } from './adjust-balance';
import type { Actor, AdminWalletsContext } from './admin-wallets-context';
import { createAddressKind, proposeCreateAddress } from './create-address';
import { deleteAddressKind, proposeDeleteAddress } from './delete-address';
import { addressesOf, listAddresses, walletsOf } from './list-wallets';
import { proposeUpdateAddress, updateAddressKind } from './update-address';
import { proposeWalletAddress, walletAddressKind } from './update-wallet-address';

/**
 * Wallet management and deposit addresses, composed: each use case is its own file taking
 * the shared context (`admin-wallets-context.ts`). Balances change only through the ledger:
 * a balance edit posts an `adjustment` for the difference (docs/product.md M7). A balance
 * edit and every change of a customer's deposit or wallet address take two people
 * (decision 0036): the routes propose (202 `{ pending }`), and each kind registered here,
 * once, applies its change when another staff member approves it
 * (`POST /api/admin/changes/:id/approve`), in that transaction, with the customer's mail.
 */

export type { Actor } from './admin-wallets-context';

export function createAdminWalletsService(ctx: AdminWalletsContext) {
  ctx.changes.register(balanceChangeKind(ctx));
  ctx.changes.register(walletAddressKind(ctx));
  ctx.changes.register(createAddressKind(ctx));
  ctx.changes.register(updateAddressKind(ctx));
  ctx.changes.register(deleteAddressKind(ctx));
  return {
    walletsOf: (userId: string) => walletsOf(ctx, userId),

    proposeWalletAddress: (actor: Actor, walletId: string, address: string, stepUp: TStepUp) =>
      proposeWalletAddress(ctx, actor, walletId, address, stepUp),

    proposeBalance: (
      actor: Actor,
      walletId: string,
      body: TAdjustWalletBalanceRequest,
      idempotencyKey: string | undefined,
    ) => proposeBalance(ctx, actor, walletId, body, idempotencyKey),

    listAddresses: (q: string | undefined) => listAddresses(ctx, q),

    /** Customers' open requests for an address, oldest first. */
    addressRequests: () => ctx.addressRequests.open(),

    addressesOf: (userId: string) => addressesOf(ctx, userId),

    proposeCreateAddress: (actor: Actor, body: z.output<typeof ZCreateDepositAddressRequest>) =>
      proposeCreateAddress(ctx, actor, body),

    proposeUpdateAddress: (actor: Actor, id: string, body: TUpdateDepositAddressRequest) =>
      proposeUpdateAddress(ctx, actor, id, body),

    proposeDeleteAddress: (actor: Actor, id: string, stepUp: TStepUp) =>
      proposeDeleteAddress(ctx, actor, id, stepUp),
  };
}

export type AdminWalletsService = ReturnType<typeof createAdminWalletsService>;

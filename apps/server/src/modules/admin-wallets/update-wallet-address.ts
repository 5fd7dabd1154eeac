import { ADMIN_WALLET_MSG, type TPendingChange, type TStepUp } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { ChangeKind } from '../staff-changes';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  checkedAddress,
  emailOf,
  findWallet,
  lockWallet,
} from './admin-wallets-context';
import { walletAddressMail, walletTitle } from './change-mails';

/** The two-person change a wallet's address is (decision 0036). */
export const WALLET_ADDRESS_UPDATE = 'wallet.address.update';

export type WalletAddressPayload = { walletId: string; address: string };

/**
 * A wallet's shown address, two people: proposed (checked by the wallet's network's rule and
 * different from the one it has; nothing changes) and set when another staff member approves
 * it, unless the address was changed since (409). The approval's transaction mails the
 * customer.
 */
export function walletAddressKind(ctx: AdminWalletsContext): ChangeKind<WalletAddressPayload> {
  return {
    kind: WALLET_ADDRESS_UPDATE,
    auditAction: 'wallet.address.update',
    async describe(client, p) {
      const wallet = await findWallet(client, p.walletId);
      const address = checkedAddress(wallet.network, p.address);
      if (address === wallet.wallet_address) {
        throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.walletAddressUnchanged);
      }
      const email = await emailOf(client, wallet.user_id);
      const title = walletTitle(wallet.asset);
      return {
        summary: `Set the address of ${email}'s ${title} wallet to ${address}`,
        before: { walletId: wallet.id, assetId: wallet.asset_id, address: wallet.wallet_address },
        after: { walletId: wallet.id, assetId: wallet.asset_id, address },
        subjectUserId: wallet.user_id,
        targetKey: wallet.id,
        payload: { walletId: wallet.id, address },
      };
    },
    async apply(client, p, { change }) {
      const wallet = await lockWallet(client, p.walletId);
      const shown = (change.before as { address?: unknown } | null)?.address ?? null;
      if (wallet.wallet_address !== shown) {
        throw new AppError('CONFLICT', ADMIN_WALLET_MSG.walletAddressChangedSinceProposal);
      }
      const address = checkedAddress(wallet.network, p.address);
      await repo.setWalletAddress(client, wallet.id, address);
      await ctx.outbox.mail(client, {
        to: await emailOf(client, wallet.user_id),
        ...walletAddressMail(wallet.asset, ctx.publicUrl),
      });
      return null;
    },
  };
}

/** PATCH /api/admin/wallets/:id/address: proposed with the proposer's step-up (202). */
export function proposeWalletAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  walletId: string,
  address: string,
  stepUp: TStepUp,
): Promise<TPendingChange> {
  return ctx.changes.propose<WalletAddressPayload>(
    actor,
    WALLET_ADDRESS_UPDATE,
    { walletId, address },
    stepUp,
  );
}

import { ADMIN_WALLET_MSG, type TPendingChange, type TStepUp } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { ChangeKind } from '../staff-changes';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  addressFacts,
  addressLabel,
  lockAddress,
  sameFacts,
} from './admin-wallets-context';
import { addressChangeMail } from './change-mails';

/** The two-person change deleting a deposit address is (decision 0036). */
export const ADDRESS_DELETE = 'deposit-address.delete';

export type DeleteAddressPayload = { id: string };

/**
 * Deleting a deposit address stops deposits to it, two people: proposed (the address exists;
 * nothing changes) and deleted when another staff member approves it, unless it was changed
 * since (409: the approver approves deleting the address they were shown). The approval's
 * transaction announces `addresses.changed` and mails the customer.
 */
export function deleteAddressKind(ctx: AdminWalletsContext): ChangeKind<DeleteAddressPayload> {
  return {
    kind: ADDRESS_DELETE,
    auditAction: 'deposit_address.delete',
    async describe(client, p) {
      const row = await lockAddress(client, p.id, false);
      const before = addressFacts(row);
      return {
        summary: `Delete ${row.email}'s ${addressLabel(before)}`,
        before,
        after: null,
        subjectUserId: row.user_id,
        targetKey: p.id,
        payload: { id: p.id },
      };
    },
    async apply(client, p, { change }) {
      const row = await lockAddress(client, p.id);
      const before = addressFacts(row);
      if (!sameFacts(before, change.before)) {
        throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressChangedSinceProposal);
      }
      await repo.deleteAddress(client, p.id);
      await ctx.outbox.mail(client, {
        to: row.email,
        ...addressChangeMail('deleted', before, ctx.publicUrl),
      });
      await ctx.addressRequests.announce(client, row.user_id);
      return null;
    },
  };
}

/** DELETE /api/admin/deposit-addresses/:id: proposed with the proposer's step-up (202). */
export function proposeDeleteAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  id: string,
  stepUp: TStepUp,
): Promise<TPendingChange> {
  return ctx.changes.propose<DeleteAddressPayload>(actor, ADDRESS_DELETE, { id }, stepUp);
}

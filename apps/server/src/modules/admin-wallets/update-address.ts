import {
  ADMIN_WALLET_MSG,
  type TPendingChange,
  type TUpdateDepositAddressRequest,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { ChangeKind } from '../staff-changes';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  addressFacts,
  addressLabel,
  assertAddressFree,
  checkedAddress,
  fulfilRequestWith,
  isUniqueViolation,
  lockAddress,
  sameFacts,
} from './admin-wallets-context';
import { type AddressChange, addressChangeMail } from './change-mails';

/** The two-person change an edit of a deposit address is (decision 0036). */
export const ADDRESS_UPDATE = 'deposit-address.update';

/** An edit as the change stores it: the address's whole resulting state. */
export type UpdateAddressPayload = {
  id: string;
  assetSymbol?: string;
  network?: string;
  address?: string;
  isActive?: boolean;
};

type Facts = ReturnType<typeof addressFacts>;

/** The edit applied to the address as it is: the fields not sent stay; checked by the network. */
function edited(before: Facts, p: UpdateAddressPayload): Facts {
  const network = p.network ?? before.network;
  return {
    userId: before.userId,
    assetSymbol: p.assetSymbol ?? before.assetSymbol,
    network,
    address: checkedAddress(network, p.address ?? before.address),
    isActive: p.isActive ?? before.isActive,
  };
}

/**
 * What an edit does: whether the address moved (another address, network or asset) and
 * what the customer's mail says of it. Moved and switched off at once reads as switched
 * off: what matters to the customer is to send nothing more to it.
 */
function editOf(before: Facts, after: Facts): { moved: boolean; change: AddressChange } {
  const moved =
    before.address !== after.address ||
    before.network !== after.network ||
    before.assetSymbol !== after.assetSymbol;
  if (before.isActive && !after.isActive) return { moved, change: 'switched-off' };
  if (!moved) return { moved, change: 'switched-on' };
  return { moved, change: 'changed' };
}

const inactive = (f: Facts) => (f.isActive ? '' : ' (inactive)');

/**
 * An edit of a deposit address (its asset, network or address; deactivating it with
 * `{ isActive: false }`, reactivating it), two people: proposed (the result fits its network,
 * belongs to nobody else and differs from the address as it is; nothing changes) and applied
 * when another staff member approves it. The approval refuses (409) if the address was
 * changed since the proposal: the approver approves the before and after they were shown.
 * Its transaction also fulfils the customer's open request when the address is now active
 * (deposits' side), announces `addresses.changed` and mails the customer, once.
 */
export function updateAddressKind(ctx: AdminWalletsContext): ChangeKind<UpdateAddressPayload> {
  return {
    kind: ADDRESS_UPDATE,
    auditAction: 'deposit_address.update',
    async describe(client, p) {
      const row = await lockAddress(client, p.id, false);
      const before = addressFacts(row);
      const after = edited(before, p);
      if (sameFacts(before, after)) {
        throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.addressUnchanged);
      }
      await assertAddressFree(client, after.address, p.id);
      const { moved, change } = editOf(before, after);
      const summary = moved
        ? `Change ${row.email}'s ${addressLabel(before)}${inactive(before)} to ${addressLabel(after)}${inactive(after)}`
        : `${change === 'switched-off' ? 'Deactivate' : 'Reactivate'} ${row.email}'s ${addressLabel(before)}`;
      return {
        summary,
        before,
        after,
        subjectUserId: row.user_id,
        targetKey: p.id,
        payload: {
          id: p.id,
          assetSymbol: after.assetSymbol,
          network: after.network,
          address: after.address,
          isActive: after.isActive,
        },
      };
    },
    async apply(client, p, { change, approver }) {
      const row = await lockAddress(client, p.id);
      const before = addressFacts(row);
      if (!sameFacts(before, change.before)) {
        throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressChangedSinceProposal);
      }
      const after = edited(before, p);
      await assertAddressFree(client, after.address, p.id);
      try {
        await repo.updateAddress(client, p.id, after);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
        throw err;
      }
      const updated = await repo.addressById(client, p.id);
      if (!updated) throw new Error(`deposit address ${p.id} vanished`);
      // Switched on, or made the asset asked for: the customer's request is answered too,
      // and its "address is ready" mail is the one they get.
      const fulfilled = await fulfilRequestWith(ctx, client, updated, approver);
      if (!fulfilled) {
        await ctx.outbox.mail(client, {
          to: updated.email,
          ...addressChangeMail(editOf(before, after).change, after, ctx.publicUrl),
        });
      }
      await ctx.addressRequests.announce(client, updated.user_id);
      return { depositAddressId: p.id, fulfilledRequest: fulfilled };
    },
  };
}

/** PATCH /api/admin/deposit-addresses/:id: proposed with the proposer's step-up (202). */
export function proposeUpdateAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  id: string,
  body: TUpdateDepositAddressRequest,
): Promise<TPendingChange> {
  const { stepUp, ...fields } = body;
  return ctx.changes.propose<UpdateAddressPayload>(
    actor,
    ADDRESS_UPDATE,
    { id, ...fields },
    stepUp,
  );
}

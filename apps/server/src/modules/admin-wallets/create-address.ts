import {
  ADMIN_WALLET_MSG,
  type TPendingChange,
  withoutStepUp,
  type ZCreateDepositAddressRequest,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { z } from 'zod';
import type { ChangeKind } from '../staff-changes';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  addressLabel,
  assertAddressFree,
  checkedAddress,
  emailOf,
  fulfilRequestWith,
  isUniqueViolation,
} from './admin-wallets-context';
import { addressChangeMail } from './change-mails';

/** The two-person change adding a customer's deposit address is (decision 0036). */
export const ADDRESS_CREATE = 'deposit-address.create';

/** A new address as the change stores it: the address in its network's form. */
export type CreateAddressPayload = {
  userId: string;
  assetSymbol: string;
  network: string;
  address: string;
  isActive: boolean;
};

/**
 * A deposit address staff enter for a customer, two people: proposed (the customer exists,
 * the address fits its network and belongs to nobody yet; nothing is stored) and added when
 * another staff member approves it, checked again then. The approval's transaction adds it,
 * fulfils the customer's open request for its asset when it is active (deposits' side: the
 * request, the "address is ready" mail, its audit row), announces `addresses.changed` and
 * mails the customer; one mail: the "ready" one when it answered a request.
 */
export function createAddressKind(ctx: AdminWalletsContext): ChangeKind<CreateAddressPayload> {
  return {
    kind: ADDRESS_CREATE,
    auditAction: 'deposit_address.create',
    async describe(client, p) {
      const email = await emailOf(client, p.userId);
      const address = checkedAddress(p.network, p.address);
      await assertAddressFree(client, address, null);
      const facts = {
        userId: p.userId,
        assetSymbol: p.assetSymbol,
        network: p.network,
        address,
        isActive: p.isActive,
      };
      return {
        summary: `Add ${email}'s ${addressLabel(facts)}${p.isActive ? '' : ' (inactive)'}`,
        before: null,
        after: facts,
        subjectUserId: p.userId,
        payload: facts,
      };
    },
    async apply(client, p, { approver }) {
      const email = await emailOf(client, p.userId);
      const address = checkedAddress(p.network, p.address);
      await assertAddressFree(client, address, null);
      let id: string;
      try {
        id = await repo.insertAddress(client, { ...p, address });
      } catch (err) {
        // Another approval took the address between the check and the insert.
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', ADMIN_WALLET_MSG.addressTaken);
        throw err;
      }
      const row = await repo.addressById(client, id);
      if (!row) throw new Error(`deposit address ${id} vanished`);
      const fulfilled = await fulfilRequestWith(ctx, client, row, approver);
      if (!fulfilled) {
        await ctx.outbox.mail(client, {
          to: email,
          ...addressChangeMail(p.isActive ? 'added' : 'added-inactive', p, ctx.publicUrl),
        });
      }
      await ctx.addressRequests.announce(client, p.userId);
      return { depositAddressId: id, fulfilledRequest: fulfilled };
    },
  };
}

/** POST /api/admin/deposit-addresses: proposed with the proposer's step-up (202). */
export function proposeCreateAddress(
  ctx: AdminWalletsContext,
  actor: Actor,
  body: z.output<typeof ZCreateDepositAddressRequest>,
): Promise<TPendingChange> {
  return ctx.changes.propose<CreateAddressPayload>(
    actor,
    ADDRESS_CREATE,
    withoutStepUp(body),
    body.stepUp,
  );
}

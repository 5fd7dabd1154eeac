import type {
  TAdminAddressRequest,
  TAssetId,
  TDepositAddressesResponse,
  TDepositAddressRequest,
} from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import {
  type AddedAddress,
  announceAddresses,
  fulfilRequest,
  openRequests,
  requestAddress,
} from './address-requests';
import { type CreditResult, creditDeposit } from './credit-deposit';
import { depositAddresses } from './deposit-addresses';
import type { DepositsContext } from './deposits-context';

/**
 * Deposits, composed: a customer's addresses (derived on their first request), the requests
 * for an address where none can be derived, and the credit of a deposit seen on chain are
 * each their own file taking the shared context (`deposits-context.ts`).
 */

/** Staff's side of address requests: the open ones, and fulfilling one on their own transaction. */
export type AddressRequests = {
  open(): Promise<TAdminAddressRequest[]>;
  /** On the transaction that adds (or switches on) an address; false when none was open. */
  fulfil(client: TxClient, added: AddedAddress): Promise<boolean>;
  /** Sends the customer's mail; called once the transaction that fulfilled a request commits. */
  sendMail(): Promise<void>;
  /** On the transaction that changed a customer's addresses: their screens and staff's refresh. */
  announce(client: TxClient, userId: string): Promise<void>;
};

export function createDepositsService(deps: DepositsContext) {
  const ctx = deps;
  const addressRequests: AddressRequests = {
    open: () => openRequests(ctx.pool),
    fulfil: (client, added) => fulfilRequest(ctx, client, added),
    sendMail: () => ctx.outbox.deliver(),
    announce: (client, userId) => announceAddresses(ctx, client, userId),
  };
  return {
    /** GET /api/deposit-addresses; an address is derived on a configured chain's first request. */
    addresses: (userId: string): Promise<TDepositAddressesResponse> =>
      depositAddresses(ctx, userId),

    /** POST /api/deposit-address-requests: one open request per customer and asset. */
    requestAddress: (userId: string, assetId: TAssetId): Promise<TDepositAddressRequest> =>
      requestAddress(ctx, userId, assetId),

    addressRequests,

    /** Credits a deposit seen on chain, once per chain transaction and asset. */
    credit: (input: {
      email: string;
      assetId: TAssetId;
      amount: bigint;
      transactionHash: string;
    }): Promise<CreditResult> => creditDeposit(ctx, input),
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;

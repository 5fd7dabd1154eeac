import type { TAssetId, TDepositAddressesResponse } from '@coffer/shared';
import { type CreditResult, creditDeposit } from './credit-deposit';
import { depositAddresses } from './deposit-addresses';
import type { DepositsContext } from './deposits-context';

/**
 * Deposits, composed: a customer's addresses (derived on their first request) and the
 * credit of a deposit seen on chain are each their own file taking the shared context
 * (`deposits-context.ts`).
 */

export function createDepositsService(deps: DepositsContext) {
  const ctx = deps;
  return {
    /** GET /api/deposit-addresses; an address is derived on a configured chain's first request. */
    addresses: (userId: string): Promise<TDepositAddressesResponse> =>
      depositAddresses(ctx, userId),

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

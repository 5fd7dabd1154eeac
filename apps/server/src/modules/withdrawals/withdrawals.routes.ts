import {
  ZCancelPayoutParams,
  ZCreateWithdrawalRequest,
  ZTransactionResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CUSTOMER_ERRORS, idempotencyKeyOf } from '../money-controls';
import type { WithdrawalsService } from './withdrawals.service';

export function withdrawalsRoutes(withdrawals: WithdrawalsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/withdrawals',
      {
        schema: {
          body: ZCreateWithdrawalRequest,
          response: { 200: ZTransactionResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => {
        const key = idempotencyKeyOf(request);
        return {
          transaction: await withdrawals.request(
            signedIn(request),
            request.body,
            key,
            clientOf(request),
          ),
        };
      },
    );

    // The customer's own withdrawal or bank payout, while nobody has taken it.
    app.post(
      '/api/withdrawals/:id/cancel',
      {
        schema: {
          params: ZCancelPayoutParams,
          response: { 200: ZTransactionResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => ({
        transaction: await withdrawals.cancel(
          signedIn(request).userId,
          request.params.id,
          idempotencyKeyOf(request),
          clientOf(request),
        ),
      }),
    );
  };
}

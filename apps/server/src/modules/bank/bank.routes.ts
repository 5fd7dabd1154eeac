import {
  ZBankDetailsResponse,
  ZCreateBankTransferRequest,
  ZSaveBankDetailsRequest,
  ZTransactionResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CUSTOMER_ERRORS, idempotencyKeyOf } from '../money-controls';
import type { BankService } from './bank.service';

export function bankRoutes(bank: BankService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/bank-transfers',
      {
        schema: {
          body: ZCreateBankTransferRequest,
          response: { 200: ZTransactionResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => {
        const key = idempotencyKeyOf(request);
        return {
          transaction: await bank.requestTransfer(
            signedIn(request),
            request.body,
            key,
            clientOf(request),
          ),
        };
      },
    );

    app.get(
      '/api/bank-details',
      { schema: { response: { 200: ZBankDetailsResponse, ...CUSTOMER_ERRORS } } },
      async (request) => ({ details: await bank.details(signedIn(request).userId) }),
    );

    app.put(
      '/api/bank-details',
      {
        schema: {
          body: ZSaveBankDetailsRequest,
          response: { 200: ZBankDetailsResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => ({
        details: await bank.saveDetails(signedIn(request), request.body, clientOf(request)),
      }),
    );
  };
}

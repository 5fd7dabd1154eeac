import {
  ZBankDetails,
  ZBankDetailsResponse,
  ZCreateBankTransferRequest,
  ZTransactionResponse,
} from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../../plugins/require-session';
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
        const { userId } = signedIn(request);
        const key = idempotencyKeyOf(request);
        return { transaction: await bank.requestTransfer(userId, request.body, key) };
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
        schema: { body: ZBankDetails, response: { 200: ZBankDetailsResponse, ...CUSTOMER_ERRORS } },
      },
      async (request) => ({
        details: await bank.saveDetails(signedIn(request).userId, request.body),
      }),
    );
  };
}

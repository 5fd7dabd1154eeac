import {
  ZDepositAddressesResponse,
  ZDepositAddressRequestResponse,
  ZRequestDepositAddressBody,
} from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CUSTOMER_ERRORS } from '../money-controls';
import type { DepositsService } from './deposits.service';

export function depositsRoutes(deposits: DepositsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/deposit-addresses',
      { schema: { response: { 200: ZDepositAddressesResponse, ...CUSTOMER_ERRORS } } },
      async (request) => deposits.addresses(signedIn(request).userId),
    );

    app.post(
      '/api/deposit-address-requests',
      {
        schema: {
          body: ZRequestDepositAddressBody,
          response: { 200: ZDepositAddressRequestResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => ({
        request: await deposits.requestAddress(signedIn(request).userId, request.body.assetId),
      }),
    );
  };
}

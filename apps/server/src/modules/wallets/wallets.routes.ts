import {
  ZPortfolioHistoryQuery,
  ZPortfolioHistoryResponse,
  ZWalletsResponse,
} from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CUSTOMER_ERRORS } from '../money-controls';
import type { WalletsService } from './wallets.service';

export function walletsRoutes(wallets: WalletsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/wallets',
      { schema: { response: { 200: ZWalletsResponse, ...CUSTOMER_ERRORS } } },
      async (request) => wallets.list(signedIn(request).userId),
    );

    app.get(
      '/api/portfolio/history',
      {
        schema: {
          querystring: ZPortfolioHistoryQuery,
          response: { 200: ZPortfolioHistoryResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => wallets.history(signedIn(request).userId, request.query.range),
    );
  };
}

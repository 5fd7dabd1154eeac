import { Readable } from 'node:stream';
import {
  ZHistoryFilters,
  ZTransactionsCsv,
  ZTransactionsQuery,
  ZTransactionsResponse,
} from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CUSTOMER_ERRORS } from '../money-controls';
import type { HistoryService } from './history.service';

export function historyRoutes(history: HistoryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/transactions',
      {
        schema: {
          querystring: ZTransactionsQuery,
          response: { 200: ZTransactionsResponse, ...CUSTOMER_ERRORS },
        },
      },
      async (request) => history.list(signedIn(request).userId, request.query),
    );

    app.get(
      '/api/transactions/export.csv',
      {
        schema: {
          // The page's filters, search and sort: the file holds what the screen lists.
          querystring: ZHistoryFilters,
          response: { 200: ZTransactionsCsv, ...CUSTOMER_ERRORS },
        },
      },
      async (request, reply) => {
        const { userId } = signedIn(request);
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="coffer-history.csv"')
            .header('cache-control', 'no-store')
            // The schema describes the CSV text; Fastify pipes a stream out as it is, without
            // serializing, and the types do not know that a stream may stand for the text.
            .send(Readable.from(history.csv(userId, request.query)) as unknown as string)
        );
      },
    );
  };
}

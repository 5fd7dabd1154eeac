import { Readable } from 'node:stream';
import {
  ZAdminTransactionIdParams,
  ZAdminTransactionResponse,
  ZAdminTransactionsCsv,
  ZAdminTransactionsFilters,
  ZAdminTransactionsQuery,
  ZAdminTransactionsResponse,
  ZApprovePayoutRequest,
  ZCompletePayoutRequest,
  ZCreateAdminTransactionRequest,
  ZDeleteAdminTransactionRequest,
  ZPendingPayoutsQuery,
  ZPendingPayoutsResponse,
  ZProposedResponse,
  ZRejectPayoutRequest,
  ZUpdateAdminTransactionRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf } from '../money-controls';
import { staffActorOf } from '../staff-changes';
import type { Actor, AdminTransactionsService } from './admin-transactions.service';

const actorOf = (request: FastifyRequest): Actor => {
  const session = signedIn(request);
  return { id: session.userId, ip: request.ip, session, client: clientOf(request) };
};

type App = Parameters<FastifyPluginAsyncZod>[0];

/** The withdrawal processing queue: the pending payouts and what staff do with them. */
function payoutRoutes(app: App, service: AdminTransactionsService): void {
  app.get(
    '/api/admin/withdrawals/pending',
    {
      config: { permission: 'transactions.read' },
      schema: {
        querystring: ZPendingPayoutsQuery,
        response: { 200: ZPendingPayoutsResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = await service.pending(request.query);
      await service.auditBankReads(actorOf(request), page.items, 'pending-queue');
      return page;
    },
  );

  app.post(
    '/api/admin/withdrawals/:id/complete',
    {
      config: { permission: 'money.propose' },
      schema: {
        params: ZAdminTransactionIdParams,
        body: ZCompletePayoutRequest,
        response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
      },
    },
    // Proposed: another staff member approves it (POST /api/admin/changes/:id/approve).
    async (request, reply) =>
      reply.code(202).send({
        pending: await service.complete(
          staffActorOf(request),
          request.params.id,
          request.body.reference,
          request.body.stepUp,
        ),
      }),
  );

  app.post(
    '/api/admin/withdrawals/:id/approve',
    {
      config: { permission: 'payouts.approve' },
      schema: {
        params: ZAdminTransactionIdParams,
        body: ZApprovePayoutRequest,
        response: { 200: ZAdminTransactionResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      transaction: await service.approve(actorOf(request), request.params.id, request.body.stepUp),
    }),
  );

  app.post(
    '/api/admin/withdrawals/:id/reject',
    {
      config: { permission: 'payouts.approve', multilineFields: ['reason'] },
      schema: {
        params: ZAdminTransactionIdParams,
        body: ZRejectPayoutRequest,
        response: { 200: ZAdminTransactionResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      transaction: await service.reject(
        actorOf(request),
        request.params.id,
        request.body.reason,
        request.body.stepUp,
      ),
    }),
  );
}

/** Transactions and the withdrawal processing queue (product.md M6, M7). */
export function adminTransactionsRoutes(service: AdminTransactionsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/transactions',
      {
        config: { permission: 'transactions.read' },
        schema: {
          querystring: ZAdminTransactionsQuery,
          response: { 200: ZAdminTransactionsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => service.list(request.query),
    );

    app.get(
      '/api/admin/transactions/export.csv',
      {
        config: { permission: 'transactions.read' },
        schema: {
          querystring: ZAdminTransactionsFilters,
          response: { 200: ZAdminTransactionsCsv, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="coffer-transactions-${day}.csv"`)
            .header('cache-control', 'no-store')
            // As the history export: Fastify pipes the stream out as it is.
            .send(Readable.from(service.csv(request.query)) as unknown as string)
        );
      },
    );

    app.get(
      '/api/admin/transactions/:id',
      {
        config: { permission: 'transactions.read' },
        schema: {
          params: ZAdminTransactionIdParams,
          response: { 200: ZAdminTransactionResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const transaction = await service.get(request.params.id);
        await service.auditBankReads(actorOf(request), [transaction], 'transaction');
        return { transaction };
      },
    );

    app.post(
      '/api/admin/transactions',
      {
        config: { permission: 'money.propose', multilineFields: ['reason'] },
        schema: {
          body: ZCreateAdminTransactionRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      // Each of these three is proposed, 202: recorded when another staff member approves it.
      async (request, reply) =>
        reply.code(202).send({
          pending: await service.create(
            staffActorOf(request),
            request.body,
            idempotencyKeyOf(request),
          ),
        }),
    );

    app.patch(
      '/api/admin/transactions/:id',
      {
        config: { permission: 'money.propose', multilineFields: ['reason'] },
        schema: {
          params: ZAdminTransactionIdParams,
          body: ZUpdateAdminTransactionRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) =>
        reply.code(202).send({
          pending: await service.update(staffActorOf(request), request.params.id, request.body),
        }),
    );

    app.delete(
      '/api/admin/transactions/:id',
      {
        config: { permission: 'money.propose', multilineFields: ['reason'] },
        schema: {
          params: ZAdminTransactionIdParams,
          body: ZDeleteAdminTransactionRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) =>
        reply.code(202).send({
          pending: await service.remove(staffActorOf(request), request.params.id, request.body),
        }),
    );

    payoutRoutes(app, service);
  };
}

import {
  type TStepUp,
  ZAbandonBatchRequest,
  ZBatchFileRequest,
  ZBatchFileResponse,
  ZBatchIdParams,
  ZBatchResponse,
  ZBatchWithFileResponse,
  ZBuildBatchRequest,
  ZBumpBatchRequest,
  ZPayoutIdParams,
  ZPayoutsOverview,
  ZPayoutsQuery,
  ZProposedResponse,
  ZResendPayoutRequest,
  ZResendPayoutResponse,
  ZReturnPayoutRequest,
  ZSubmitBatchRequest,
  ZSubmitBatchResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { staffActorOf } from '../staff-changes';
import type { StepUp } from '../step-up';
import type { PayoutsService } from './payouts.service';

/**
 * The admin Payouts screen: each chain's approved payouts and batches; building a batch,
 * handing out its file and taking the signed one back, abandoning a batch nobody signed,
 * and the ways out for a payout reversed on chain, each with the admin's step-up on the
 * action's own transaction.
 */
export function payoutsRoutes(deps: {
  payouts: PayoutsService;
  stepUp: Pick<StepUp, 'confirm'>;
}): FastifyPluginAsyncZod {
  const actorOf = (request: FastifyRequest, proof: TStepUp) => {
    const session = signedIn(request);
    return {
      id: session.userId,
      ip: request.ip,
      stepUp: (client: pg.PoolClient) =>
        deps.stepUp.confirm(client, session, proof, clientOf(request)),
    };
  };
  return async (app) => {
    app.get(
      '/api/admin/payouts',
      {
        config: { permission: 'payouts.read' },
        schema: {
          querystring: ZPayoutsQuery,
          response: { 200: ZPayoutsOverview, ...ERROR_RESPONSES },
        },
      },
      async (request) => deps.payouts.overview(request.query.chain),
    );

    app.post(
      '/api/admin/payouts/batches',
      {
        config: { permission: 'payouts.build' },
        schema: {
          body: ZBuildBatchRequest,
          response: { 200: ZBatchWithFileResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const { batch, file } = await deps.payouts.build(
          actorOf(request, request.body.stepUp),
          request.body.chain,
        );
        return { batch, file: { fileName: batch.fileName, content: file } };
      },
    );

    app.post(
      '/api/admin/payouts/batches/:id/file',
      {
        config: { permission: 'payouts.build' },
        schema: {
          params: ZBatchIdParams,
          body: ZBatchFileRequest,
          response: { 200: ZBatchFileResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        deps.payouts.file(actorOf(request, request.body.stepUp), request.params.id),
    );

    app.post(
      '/api/admin/payouts/batches/:id/submit',
      {
        config: { permission: 'payouts.build', multilineFields: ['signed'] },
        schema: {
          params: ZBatchIdParams,
          body: ZSubmitBatchRequest,
          response: { 200: ZSubmitBatchResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const batch = await deps.payouts.chainOfBatch(request.params.id);
        return deps.payouts.submit(
          actorOf(request, request.body.stepUp),
          batch,
          request.body.signed,
          request.params.id,
        );
      },
    );

    app.post(
      '/api/admin/payouts/batches/:id/bump',
      {
        config: { permission: 'payouts.build' },
        schema: {
          params: ZBatchIdParams,
          body: ZBumpBatchRequest,
          response: { 200: ZBatchWithFileResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const { batch, file } = await deps.payouts.bump(
          actorOf(request, request.body.stepUp),
          request.params.id,
          request.body.feeRate,
        );
        return { batch, file: { fileName: batch.fileName, content: file } };
      },
    );

    // A built batch nobody signed: abandoned in one transaction, its payouts approved again,
    // its Bitcoin inputs and Ethereum nonces free for the next build. 409 once any of its
    // transactions was recorded as signed (it may confirm), or the batch is not 'built'.
    app.post(
      '/api/admin/payouts/batches/:id/abandon',
      {
        config: { permission: 'payouts.build' },
        schema: {
          params: ZBatchIdParams,
          body: ZAbandonBatchRequest,
          response: { 200: ZBatchResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        batch: await deps.payouts.abandon(actorOf(request, request.body.stepUp), request.params.id),
      }),
    );

    // A payout reversed on chain: its recorded signed transaction sent again, the same
    // bytes; the node's refusal is a 409 with its words (stored on the transaction).
    app.post(
      '/api/admin/payouts/:id/resend',
      {
        config: { permission: 'payouts.build' },
        schema: {
          params: ZPayoutIdParams,
          body: ZResendPayoutRequest,
          response: { 200: ZResendPayoutResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        deps.payouts.resend(actorOf(request, request.body.stepUp), request.params.id),
    );

    // A payout reversed on chain, paid again: proposed here (202), applied when another
    // staff member approves it (POST /api/admin/changes/:id/approve, `payouts.approve`). It
    // goes back to 'approved' (batch, hash, output and block cleared) with `completed_at`
    // kept: its ledger row stays completed (the customer was debited once, and the chain no
    // longer holds that payment), and the settlement of the new payment skips the ledger
    // because `completed_at` is set. So the customer is debited once and paid once; the
    // simplest correct design, as `withdrawals.settle` refuses a completed row.
    app.post(
      '/api/admin/payouts/:id/return',
      {
        config: { permission: 'money.propose', multilineFields: ['reason'] },
        schema: {
          params: ZPayoutIdParams,
          body: ZReturnPayoutRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) =>
        reply.code(202).send({
          pending: await deps.payouts.proposeReturn(
            staffActorOf(request),
            request.params.id,
            request.body.reason,
            request.body.stepUp,
          ),
        }),
    );
  };
}

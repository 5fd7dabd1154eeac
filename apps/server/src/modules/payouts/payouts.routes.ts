import {
  type TStepUp,
  ZBatchFileRequest,
  ZBatchFileResponse,
  ZBatchIdParams,
  ZBatchWithFileResponse,
  ZBuildBatchRequest,
  ZBumpBatchRequest,
  ZPayoutsOverview,
  ZPayoutsQuery,
  ZSubmitBatchRequest,
  ZSubmitBatchResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { StepUp } from '../step-up';
import type { PayoutsService } from './payouts.service';

/**
 * The admin Payouts screen: each chain's approved payouts and batches; building a batch,
 * handing out its file and taking the signed one back, each with the admin's step-up on
 * the action's own transaction.
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
  };
}

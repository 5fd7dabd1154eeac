import {
  ZChangeIdParams,
  ZChangesResponse,
  ZDecideChangeRequest,
  ZDecidedChangeResponse,
} from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from './staff-actor';
import type { StaffChanges } from './staff-changes.service';

/** The changes waiting for a second staff member, and their decisions; in the admin tree. */
export function staffChangesRoutes(changes: StaffChanges): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/changes',
      {
        config: { permission: 'back-office.read' },
        schema: { response: { 200: ZChangesResponse, ...ERROR_RESPONSES } },
      },
      async () => {
        const pending = await changes.pending();
        return { changes: pending, count: pending.length };
      },
    );
    app.post(
      '/api/admin/changes/:id/approve',
      {
        config: { permission: 'changes.decide' },
        schema: {
          params: ZChangeIdParams,
          body: ZDecideChangeRequest,
          response: { 200: ZDecidedChangeResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        change: await changes.approve(
          staffActorOf(request),
          request.params.id,
          request.body.stepUp,
        ),
      }),
    );
    // The proposer withdraws their own here too, whatever their roles: the service checks.
    app.post(
      '/api/admin/changes/:id/reject',
      {
        config: { permission: 'back-office.read' },
        schema: {
          params: ZChangeIdParams,
          body: ZDecideChangeRequest,
          response: { 200: ZDecidedChangeResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({
        change: await changes.reject(staffActorOf(request), request.params.id, request.body.stepUp),
      }),
    );
  };
}

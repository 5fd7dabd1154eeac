import {
  ZAdminRecoveryPhrases,
  ZAdminRecoveryPhrasesQuery,
  ZAdminTwoFactorDisableRequest,
  ZAdminTwoFactorRequiredRequest,
  ZAdminTwoFactorResetRequest,
  ZAdminTwoFactorState,
  ZAdminUserDirectory,
  ZAdminUserDirectoryQuery,
  ZAdminUserFiguresQuery,
  ZAdminUserFiguresResponse,
  ZAdminUserIdParams,
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZProposedResponse,
  ZStaffIdParams,
  ZStaffTwoFactorResetRequest,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../staff-changes';
import type { Actor, AdminUsersService } from './admin-users.service';

const actorOf = (request: FastifyRequest): Actor => {
  const session = signedIn(request);
  return { adminId: session.userId, ip: request.ip, session, client: clientOf(request) };
};

/**
 * Users management, the customers' 2FA controls, a staff member's second-factor reset
 * (proposed, an owner approves), recovery-phrase metadata, the dashboard figures and the
 * user directory every admin picker searches. Registered inside the admin tree, so every
 * route here is `access: 'admin'`.
 */
export function adminUsersRoutes(users: AdminUsersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/user-directory',
      {
        config: { permission: 'customers.read' },
        schema: {
          querystring: ZAdminUserDirectoryQuery,
          response: { 200: ZAdminUserDirectory, ...ERROR_RESPONSES },
        },
      },
      async (request) => users.directory(request.query.q, request.query.limit),
    );

    app.get(
      '/api/admin/users',
      {
        config: { permission: 'customers.read' },
        schema: {
          querystring: ZAdminUsersQuery,
          response: { 200: ZAdminUsersResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        users.list(
          request.query.q,
          request.query.page,
          request.query.pageSize,
          request.query.fresh,
        ),
    );

    app.get(
      '/api/admin/users/figures',
      {
        config: { permission: 'customers.read' },
        schema: {
          querystring: ZAdminUserFiguresQuery,
          response: { 200: ZAdminUserFiguresResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => ({ figures: await users.figures(request.query.ids) }),
    );

    app.post(
      '/api/admin/users/:id/two-factor/required',
      {
        config: { permission: 'customers.protect', multilineFields: ['reason'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZAdminTwoFactorRequiredRequest,
          response: { 200: ZAdminTwoFactorState, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        users.setRequired(
          actorOf(request),
          request.params.id,
          request.body.required,
          request.body.reason ?? null,
          request.body.stepUp,
        ),
    );

    app.post(
      '/api/admin/users/:id/two-factor/reset',
      {
        config: { permission: 'customers.protect', multilineFields: ['recoveryPhrase'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZAdminTwoFactorResetRequest,
          response: { 200: ZAdminTwoFactorState, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        users.reset(
          actorOf(request),
          request.params.id,
          request.body.recoveryPhrase,
          request.body.stepUp,
        ),
    );

    app.post(
      '/api/admin/users/:id/two-factor/disable',
      {
        config: { permission: 'customers.protect', multilineFields: ['reason'] },
        schema: {
          params: ZAdminUserIdParams,
          body: ZAdminTwoFactorDisableRequest,
          response: { 200: ZAdminTwoFactorState, 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      // A customer's factor goes at once (200); a staff member's reset is proposed (202).
      async (request, reply) => {
        const done = await users.disable(
          staffActorOf(request),
          request.params.id,
          request.body.reason,
          request.body.stepUp,
        );
        return 'pending' in done
          ? reply.code(202).send({ pending: done.pending })
          : reply.send(done.state);
      },
    );

    app.post(
      '/api/admin/staff/:id/two-factor/reset',
      {
        config: { permission: 'staff.manage', multilineFields: ['reason'] },
        schema: {
          params: ZStaffIdParams,
          body: ZStaffTwoFactorResetRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await users.resetStaff(
          staffActorOf(request),
          request.params.id,
          request.body.reason,
          request.body.stepUp,
        );
        return reply.code(202).send({ pending });
      },
    );

    app.get(
      '/api/admin/recovery-phrases',
      {
        config: { permission: 'customers.read' },
        schema: {
          querystring: ZAdminRecoveryPhrasesQuery,
          response: { 200: ZAdminRecoveryPhrases, ...ERROR_RESPONSES },
        },
      },
      async (request) => users.recoveryPhrases(request.query.page, request.query.pageSize),
    );
  };
}

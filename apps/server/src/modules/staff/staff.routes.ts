import {
  ZAdminStaffList,
  ZProposedResponse,
  ZStaffIdParams,
  ZStaffInviteRequest,
  ZStaffRemovedResponse,
  ZStaffRemoveRequest,
  ZStaffRolesRequest,
} from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../staff-changes';
import type { StaffService } from './staff.service';

/**
 * The Staff screen's API, in the admin tree: the list (`staff.read`); inviting and changing
 * roles, each proposed (202 with `pending`) for another owner's approval; removing, at once.
 */
export function staffRoutes(staff: StaffService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/staff',
      {
        config: { permission: 'staff.read' },
        schema: { response: { 200: ZAdminStaffList, ...ERROR_RESPONSES } },
      },
      async () => staff.list(),
    );

    app.post(
      '/api/admin/staff/invitations',
      {
        config: { permission: 'staff.manage' },
        schema: {
          body: ZStaffInviteRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const { email, roles, stepUp } = request.body;
        const pending = await staff.invite(staffActorOf(request), email, roles, stepUp);
        return reply.code(202).send({ pending });
      },
    );

    app.put(
      '/api/admin/staff/:id/roles',
      {
        config: { permission: 'staff.manage' },
        schema: {
          params: ZStaffIdParams,
          body: ZStaffRolesRequest,
          response: { 202: ZProposedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request, reply) => {
        const pending = await staff.changeRoles(
          staffActorOf(request),
          request.params.id,
          request.body.roles,
          request.body.stepUp,
        );
        return reply.code(202).send({ pending });
      },
    );

    app.delete(
      '/api/admin/staff/:id',
      {
        config: { permission: 'staff.manage' },
        schema: {
          params: ZStaffIdParams,
          body: ZStaffRemoveRequest,
          response: { 200: ZStaffRemovedResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        staff.remove(staffActorOf(request), request.params.id, request.body.stepUp),
    );
  };
}

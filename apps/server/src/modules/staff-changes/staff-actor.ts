import { clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { StaffActor } from './staff-changes.service';

/** The staff member a request comes from, with the roles its session was read with. */
export function staffActorOf(request: FastifyRequest): StaffActor {
  const session = signedIn(request);
  return {
    userId: session.userId,
    roles: session.staffRoles,
    ip: request.ip ?? null,
    session,
    client: clientOf(request),
  };
}

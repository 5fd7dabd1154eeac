import { MSG } from '@coffer/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error';
import type { SessionContext } from '../modules/sessions/sessions.repository';

/** The session of a route the gate already let through as signed-in; typed as present. */
export function signedIn(request: FastifyRequest): SessionContext {
  if (!request.session) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
  return request.session;
}

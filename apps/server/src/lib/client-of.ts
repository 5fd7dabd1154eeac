import type { FastifyRequest } from 'fastify';

/** Who is calling, as sign-in and 2FA record it on a session. */
export type Client = { ip: string; userAgent: string | undefined };

export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

import type { FastifyRequest } from 'fastify';
import type { Client } from './auth.service';

export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

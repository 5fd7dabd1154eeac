import { ZFirstRunResponse } from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FirstRun } from './first-run.service';

/** The checklist's read and its close; the gate's default (customer) access. */
export function firstRunRoutes(firstRun: FirstRun): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/first-run',
      { schema: { response: { 200: ZFirstRunResponse, ...ERROR_RESPONSES } } },
      async (request) => firstRun.state(signedIn(request).userId),
    );

    app.post(
      '/api/first-run/dismiss',
      { schema: { response: { 200: ZFirstRunResponse, ...ERROR_RESPONSES } } },
      async (request) => firstRun.dismiss(signedIn(request).userId),
    );
  };
}

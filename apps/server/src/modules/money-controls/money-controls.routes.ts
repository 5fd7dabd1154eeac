import { ZMoneyStatus } from '@coffer/shared';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MoneyControls } from './money-controls.service';
import { CUSTOMER_ERRORS } from './money-http';

export function moneyControlsRoutes(controls: MoneyControls): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/money/status',
      { schema: { response: { 200: ZMoneyStatus, ...CUSTOMER_ERRORS } } },
      async (request) => controls.status(signedIn(request).userId),
    );
  };
}

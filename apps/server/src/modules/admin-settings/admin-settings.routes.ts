import {
  ZAppSettingsResponse,
  ZErrorResponse,
  ZPriceSyncResponse,
  ZPriceSyncStatus,
  ZUpdateSettingsRequest,
  ZUpdateSettingsResponse,
} from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../app-services';
import { signedIn } from '../../plugins/require-session';
import { createAdminSettingsService } from './admin-settings.service';

const ERRORS = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
} as const;

/** App settings and the wallet price sync (admin.md §2.6); registered in the admin tree. */
export function adminSettingsRoutes(s: Services): FastifyPluginAsyncZod {
  const service = createAdminSettingsService(s);
  return async (app) => {
    app.get(
      '/api/admin/settings',
      { schema: { response: { 200: ZAppSettingsResponse, ...ERRORS } } },
      async () => ({ settings: await service.list() }),
    );

    app.put(
      '/api/admin/settings',
      {
        schema: {
          body: ZUpdateSettingsRequest,
          response: { 200: ZUpdateSettingsResponse, ...ERRORS },
        },
      },
      async (request) =>
        service.update({ userId: signedIn(request).userId, ip: request.ip }, request.body.values),
    );

    app.post(
      '/api/admin/settings/reset',
      { schema: { response: { 200: ZUpdateSettingsResponse, ...ERRORS } } },
      async (request) => service.reset({ userId: signedIn(request).userId, ip: request.ip }),
    );

    app.get(
      '/api/admin/prices/sync',
      { schema: { response: { 200: ZPriceSyncStatus, ...ERRORS } } },
      async () => service.syncStatus(),
    );

    app.post(
      '/api/admin/prices/sync',
      { schema: { response: { 200: ZPriceSyncResponse, ...ERRORS } } },
      async (request) => service.syncPrices({ userId: signedIn(request).userId, ip: request.ip }),
    );
  };
}

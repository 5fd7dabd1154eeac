import {
  ZAppSettingsResponse,
  ZPriceSyncResponse,
  ZPriceSyncStatus,
  ZUpdateSettingsRequest,
  ZUpdateSettingsResponse,
} from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../app-services';
import { ERROR_RESPONSES } from '../../lib/error-responses';
import { signedIn } from '../../plugins/require-session';
import { createAdminSettingsService } from './admin-settings.service';

/** App settings and the wallet price sync (admin.md §2.6); registered in the admin tree. */
export function adminSettingsRoutes(s: Services): FastifyPluginAsyncZod {
  const service = createAdminSettingsService(s);
  return async (app) => {
    app.get(
      '/api/admin/settings',
      { schema: { response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES } } },
      async () => ({ settings: await service.list() }),
    );

    app.put(
      '/api/admin/settings',
      {
        // JSON-typed settings are edited in a text area.
        config: { multilineFields: ['values.*'] },
        schema: {
          body: ZUpdateSettingsRequest,
          response: { 200: ZUpdateSettingsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        service.update({ userId: signedIn(request).userId, ip: request.ip }, request.body.values),
    );

    app.post(
      '/api/admin/settings/reset',
      { schema: { response: { 200: ZUpdateSettingsResponse, ...ERROR_RESPONSES } } },
      async (request) => service.reset({ userId: signedIn(request).userId, ip: request.ip }),
    );

    app.get(
      '/api/admin/prices/sync',
      { schema: { response: { 200: ZPriceSyncStatus, ...ERROR_RESPONSES } } },
      async () => service.syncStatus(),
    );

    app.post(
      '/api/admin/prices/sync',
      { schema: { response: { 200: ZPriceSyncResponse, ...ERROR_RESPONSES } } },
      async (request) => service.syncPrices({ userId: signedIn(request).userId, ip: request.ip }),
    );
  };
}

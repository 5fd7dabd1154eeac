import {
  type TStepUp,
  ZAppSettingsResponse,
  ZPriceSyncResponse,
  ZPriceSyncStatus,
  ZSettingChangeIdParams,
  ZSettingsStepUpRequest,
  ZUpdateSettingsRequest,
  ZUpdateSettingsResponse,
} from '@coffer/shared';
import { clientOf } from '@server/lib/client-of';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminSettingsService, SettingsRequest } from './admin-settings.service';

/** The admin, where from, and the fresh second factor the body carries. */
const settingsRequest = (request: FastifyRequest, body: { stepUp: TStepUp }): SettingsRequest => ({
  session: signedIn(request),
  who: clientOf(request),
  stepUp: body.stepUp,
});

/**
 * App settings and the wallet price sync; registered in the admin tree.
 * Risk settings change with four eyes: a save that proposes one answers 202.
 */
export function adminSettingsRoutes(service: AdminSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/settings',
      { schema: { response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES } } },
      async () => service.list(),
    );
    app.put(
      '/api/admin/settings',
      {
        // JSON-typed settings are edited in a text area.
        config: { multilineFields: ['values.*'] },
        schema: {
          body: ZUpdateSettingsRequest,
          response: {
            200: ZUpdateSettingsResponse,
            202: ZUpdateSettingsResponse,
            ...ERROR_RESPONSES,
          },
        },
      },
      async (request, reply) => {
        const saved = await service.update(
          settingsRequest(request, request.body),
          request.body.values,
        );
        return reply.code(saved.pending.length > 0 ? 202 : 200).send(saved);
      },
    );
    app.post(
      '/api/admin/settings/reset',
      {
        schema: {
          body: ZSettingsStepUpRequest,
          response: {
            200: ZUpdateSettingsResponse,
            202: ZUpdateSettingsResponse,
            ...ERROR_RESPONSES,
          },
        },
      },
      async (request, reply) => {
        const saved = await service.reset(settingsRequest(request, request.body));
        return reply.code(saved.pending.length > 0 ? 202 : 200).send(saved);
      },
    );
    app.post(
      '/api/admin/settings/changes/:id/approve',
      {
        schema: {
          params: ZSettingChangeIdParams,
          body: ZSettingsStepUpRequest,
          response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => service.approve(settingsRequest(request, request.body), request.params.id),
    );
    app.post(
      '/api/admin/settings/changes/:id/reject',
      {
        schema: {
          params: ZSettingChangeIdParams,
          body: ZSettingsStepUpRequest,
          response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) => service.reject(settingsRequest(request, request.body), request.params.id),
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

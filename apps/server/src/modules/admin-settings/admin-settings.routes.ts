import {
  ZAppSettingsResponse,
  ZPriceSyncResponse,
  ZPriceSyncStatus,
  ZSettingChangeIdParams,
  ZSettingsStepUpRequest,
  ZUpdateSettingsRequest,
  ZUpdateSettingsResponse,
} from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../staff-changes';
import type { AdminSettingsService } from './admin-settings.service';

/**
 * App settings and the wallet price sync; registered in the admin tree.
 * Risk settings change with four eyes: a save that proposes one answers 202.
 */
export function adminSettingsRoutes(service: AdminSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/settings',
      {
        config: { permission: 'settings.read' },
        schema: { response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES } },
      },
      async () => service.list(),
    );
    app.put(
      '/api/admin/settings',
      {
        // JSON-typed settings are edited in a text area.
        config: { permission: 'settings.propose', multilineFields: ['values.*'] },
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
          staffActorOf(request),
          request.body.stepUp,
          request.body.values,
        );
        return reply.code(saved.pending.length > 0 ? 202 : 200).send(saved);
      },
    );
    app.post(
      '/api/admin/settings/reset',
      {
        config: { permission: 'settings.propose' },
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
        const saved = await service.reset(staffActorOf(request), request.body.stepUp);
        return reply.code(saved.pending.length > 0 ? 202 : 200).send(saved);
      },
    );
    app.post(
      '/api/admin/settings/changes/:id/approve',
      {
        config: { permission: 'changes.decide' },
        schema: {
          params: ZSettingChangeIdParams,
          body: ZSettingsStepUpRequest,
          response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        service.approve(staffActorOf(request), request.body.stepUp, request.params.id),
    );
    app.post(
      '/api/admin/settings/changes/:id/reject',
      {
        config: { permission: 'back-office.read' },
        schema: {
          params: ZSettingChangeIdParams,
          body: ZSettingsStepUpRequest,
          response: { 200: ZAppSettingsResponse, ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        service.reject(staffActorOf(request), request.body.stepUp, request.params.id),
    );
    app.get(
      '/api/admin/prices/sync',
      {
        config: { permission: 'settings.read' },
        schema: { response: { 200: ZPriceSyncStatus, ...ERROR_RESPONSES } },
      },
      async () => service.syncStatus(),
    );
    app.post(
      '/api/admin/prices/sync',
      {
        config: { permission: 'prices.sync' },
        schema: { response: { 200: ZPriceSyncResponse, ...ERROR_RESPONSES } },
      },
      async (request) => service.syncPrices({ userId: signedIn(request).userId, ip: request.ip }),
    );
  };
}

import { Readable } from 'node:stream';
import {
  ZAuditCsv,
  ZAuditFacets,
  ZAuditFilters,
  ZAuditPage,
  ZAuditQuery,
  ZAuditVerifyResponse,
} from '@coffer/shared';
import { ERROR_RESPONSES } from '@server/lib/error-responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdminAuditService } from './admin-audit.service';

/** The audit log screen's API (product.md M7); registered in the admin tree. */
export function adminAuditRoutes(audit: AdminAuditService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/audit',
      {
        config: { permission: 'audit.read' },
        schema: { querystring: ZAuditQuery, response: { 200: ZAuditPage, ...ERROR_RESPONSES } },
      },
      async (request) => {
        const { page, ...filters } = request.query;
        return audit.list(filters, page);
      },
    );

    app.get(
      '/api/admin/audit/facets',
      {
        config: { permission: 'audit.read' },
        schema: { response: { 200: ZAuditFacets, ...ERROR_RESPONSES } },
      },
      async () => audit.facets(),
    );

    app.get(
      '/api/admin/audit/verify',
      {
        config: { permission: 'audit.read' },
        schema: { response: { 200: ZAuditVerifyResponse, ...ERROR_RESPONSES } },
      },
      async () => audit.verify(),
    );

    app.get(
      '/api/admin/audit/export.csv',
      {
        config: { permission: 'audit.read' },
        schema: { querystring: ZAuditFilters, response: { 200: ZAuditCsv, ...ERROR_RESPONSES } },
      },
      async (request, reply) => {
        const day = new Date().toISOString().slice(0, 10);
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="coffer-audit-${day}.csv"`)
            .header('cache-control', 'no-store')
            // As in history.routes.ts: Fastify pipes the stream out as it is.
            .send(Readable.from(audit.csv(request.query)) as unknown as string)
        );
      },
    );
  };
}

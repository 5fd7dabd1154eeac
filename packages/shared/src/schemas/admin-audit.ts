import { z } from 'zod';
import { ZOptionalDay } from './days';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Filters of the audit log screen and its CSV export; empty strings mean "any". */
export const ZAuditFilters = z.object({
  /** Free text: action, target, reason, IP, actor or target user e-mail. */
  q: z.string().trim().max(200).optional().default(''),
  /** The acting admin's id. */
  actor: z
    .string()
    .trim()
    .refine((v) => v === '' || UUID.test(v), 'Choose an admin from the list.')
    .optional()
    .default(''),
  action: z.string().trim().max(100).optional().default(''),
  /** The customer concerned: their id or their exact e-mail address. */
  targetUser: z.string().trim().max(320).optional().default(''),
  /** From this day (UTC) inclusive. */
  from: ZOptionalDay,
  /** Up to this day (UTC) inclusive. */
  to: ZOptionalDay,
});
export type TAuditFilters = z.infer<typeof ZAuditFilters>;

export const ZAuditQuery = ZAuditFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type TAuditQuery = z.input<typeof ZAuditQuery>;

export const AUDIT_PAGE_SIZE = 25;

export const ZAuditEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  targetUserId: z.string().nullable(),
  targetUserEmail: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditPage = z.object({
  items: z.array(ZAuditEntry),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** What the filters offer: the actions and the admins found in the log. */
export const ZAuditFacets = z.object({
  actions: z.array(z.string()),
  actors: z.array(z.object({ id: z.string(), email: z.string().nullable() })),
});
export type TAuditFacets = z.infer<typeof ZAuditFacets>;

export const ZAuditVerifyResponse = z.object({
  ok: z.boolean(),
  /** Rows checked when the chain holds. */
  rows: z.number().int().nullable(),
  firstBrokenId: z.string().nullable(),
  reason: z.enum(['content changed', 'link broken']).nullable(),
  checkedAt: z.string(),
});
export type TAuditVerifyResponse = z.infer<typeof ZAuditVerifyResponse>;

/** The export stops here; narrow the filters for more. */
export const AUDIT_CSV_MAX_ROWS = 100_000;
export const ZAuditCsv = z.string();

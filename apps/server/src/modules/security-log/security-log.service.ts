import {
  SECURITY_ACTIVITY_LIMIT,
  SECURITY_EVENT_KINDS,
  securityEventLabel,
  type TSecurityEvent,
  type TSecurityEventKind,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { Logger } from 'pino';
import { deviceLabel } from '../account-security';
import type { AuditLog } from '../audit';
import {
  type Queryable,
  securityLogRepository as repo,
  type SecurityEventRow,
} from './security-log.repository';

export type SecurityEventInput = {
  userId: string;
  kind: TSecurityEventKind;
  /** Where the request came from; absent when staff or the system acted. */
  client?: Client | null;
  /** Short free text for the customer to read: never a secret, code, token, phrase or password. */
  detail?: string | null;
};

const DETAIL_MAX = 200;
const USER_AGENT_MAX = 300;
/** How long an entry written beside an open transaction waits for a lock before it gives up. */
const BESIDE_LOCK_WAIT_MS = 2000;

function present(row: SecurityEventRow): TSecurityEvent {
  return {
    id: row.id,
    kind: row.kind,
    label: securityEventLabel(row.kind),
    at: row.created_at.toISOString(),
    ip: row.ip,
    device: row.user_agent === null ? null : deviceLabel(row.user_agent),
    detail: row.detail,
  };
}

/**
 * The account's security activity: an append-only log of sign-ins, refused
 * attempts, factor changes, phrase use and holds. Modules record on the transaction of the
 * change they log, so an entry exists exactly when its change committed.
 */
export function createSecurityLog(deps: { pool: pg.Pool; audit: AuditLog; log: Logger }) {
  async function record(q: Queryable, input: SecurityEventInput): Promise<void> {
    // A programming error, not a client's: the kinds are a closed list the screens can name.
    if (!Object.hasOwn(SECURITY_EVENT_KINDS, input.kind)) {
      throw new Error(`unknown security event kind: ${input.kind}`);
    }
    await repo.insert(q, {
      userId: input.userId,
      kind: input.kind,
      ip: input.client?.ip ?? null,
      userAgent: input.client?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      detail: input.detail ? input.detail.slice(0, DETAIL_MAX) : null,
    });
  }

  return {
    record,

    /**
     * For an event that has no transaction of its own to join (a sign-in's session, a refused
     * password): a failure to log it is logged for the operator and never fails the request.
     */
    async recordQuietly(input: SecurityEventInput): Promise<void> {
      try {
        await record(deps.pool, input);
      } catch (err) {
        deps.log.error({ err, kind: input.kind }, 'security event not recorded');
      }
    },

    /**
     * For a refusal inside a caller's transaction that is about to roll back (a wrong answer
     * to a step-up): written on a connection of its own, so it outlasts the rollback. The
     * entry's user reference may wait on a lock that very transaction holds on the user's
     * row, so it gives up after a short wait (logged for the operator) rather than wait for
     * a transaction that waits for it.
     */
    async recordBesideTransaction(input: SecurityEventInput): Promise<void> {
      try {
        await withTransaction(deps.pool, async (client) => {
          await repo.limitLockWait(client, BESIDE_LOCK_WAIT_MS);
          await record(client, input);
        });
      } catch (err) {
        deps.log.error({ err, kind: input.kind }, 'security event not recorded');
      }
    },

    /** The signed-in user's own newest events. */
    async activity(userId: string): Promise<TSecurityEvent[]> {
      return (await repo.newest(deps.pool, userId, SECURITY_ACTIVITY_LIMIT)).map(present);
    },

    /**
     * Staff reading a customer's activity: it shows where and from what they sign in, so the
     * look is written to the audit log (as a KYC document view is) before it is answered.
     */
    async forStaff(actor: { adminId: string; ip: string | null }, userId: string) {
      return withTransaction(deps.pool, async (client) => {
        if (!(await repo.userExists(client, userId))) {
          throw new AppError('NOT_FOUND', 'User not found');
        }
        const rows = await repo.newest(client, userId, SECURITY_ACTIVITY_LIMIT);
        await deps.audit.record(client, {
          actorId: actor.adminId,
          action: 'user.security_activity.view',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          after: { events: rows.length },
          ip: actor.ip,
        });
        return rows.map(present);
      });
    },
  };
}

export type SecurityLog = ReturnType<typeof createSecurityLog>;

import type { TUnfreezeState } from '@coffer/shared';
import { SECURITY_HOLD_HOURS } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { SecurityLog } from '../security-log';
import type { SessionContext } from '../sessions';
import { SETTING_DEFAULTS } from '../settings';
import type { StepUp } from '../step-up';
import { type PendingUnfreeze, securityHoldRepository as repo } from './security-hold.repository';

/**
 * What the parts of the security hold service share: its dependencies, given once to
 * `createSecurityHold`, and the helpers every part asks the same way.
 */
export type SecurityHoldContext = {
  pool: pg.Pool;
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  audit: AuditLog;
  securityLog: Pick<SecurityLog, 'record'>;
  /** The fresh second factor each unfreeze step takes (decision 0015). */
  stepUp: Pick<StepUp, 'confirm'>;
  publicUrl: string;
};

export const UNFREEZE_MSG = {
  notFrozen: 'This account is not frozen.',
  alreadyRequested:
    'An unfreeze request is already waiting for this account: another admin approves or rejects it.',
  nothingPending: 'No unfreeze request is waiting for this account.',
  ownRequest: 'You asked for this unfreeze yourself: another admin must approve it (four eyes).',
  unknownUser: 'User not found',
} as const;

/** Who acts for staff: the session (for the step-up) and the address the request came from. */
export type StaffActor = { session: SessionContext; client: Client };

const UTC = new Intl.DateTimeFormat('en-AU', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
export const whenText = (d: Date) => `${UTC.format(d)} UTC`;

export function holdHours(values: Map<string, string>): number {
  const raw =
    values.get('security_hold_hours') ??
    SETTING_DEFAULTS.find((d) => d.key === 'security_hold_hours')?.value ??
    '48';
  const hours = Number(raw);
  // An unreadable setting holds for the default rather than not at all, and a value stored
  // before the floor existed never makes a hold shorter than it.
  return Number.isFinite(hours) && hours >= 1 && hours <= 24 * 30
    ? Math.max(hours, SECURITY_HOLD_HOURS.min)
    : 48;
}

const presentPending = (p: PendingUnfreeze | null) =>
  p && {
    id: p.id,
    requestedBy: { id: p.requestedBy, email: p.requestedByEmail },
    requestedAt: p.requestedAt.toISOString(),
    reason: p.reason,
  };

export async function unfreezeState(
  db: pg.Pool | pg.PoolClient,
  userId: string,
): Promise<TUnfreezeState> {
  const state = await repo.freezeState(db, userId);
  if (!state) throw new AppError('NOT_FOUND', UNFREEZE_MSG.unknownUser);
  return { ...state, pending: presentPending(await repo.pendingUnfreeze(db, userId)) };
}

/** What an audit row of an unfreeze step says the account was, before the step. */
export const freezeBefore = (locked: {
  frozenAt: Date | null;
  newPasswordRequiredAt: Date | null;
}) => ({
  frozen: locked.frozenAt !== null,
  frozenAt: locked.frozenAt?.toISOString() ?? null,
  awaitingNewPassword: locked.newPasswordRequiredAt !== null,
});

/**
 * One step of the two-admin unfreeze review in the audit log, on the step's own
 * transaction, as its last write: who acted on which account, the state before and after,
 * and the reason.
 */
export function auditUnfreezeStep(
  deps: SecurityHoldContext,
  client: pg.PoolClient,
  actor: StaffActor,
  userId: string,
  step: {
    action: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    reason: string;
  },
) {
  return deps.audit.record(client, {
    actorId: actor.session.userId,
    targetType: 'user',
    targetId: userId,
    targetUserId: userId,
    ip: actor.client.ip,
    ...step,
  });
}

/** The account's freeze locked for this transaction; an unknown user is a 404. */
export async function lockFreeze(client: pg.PoolClient, userId: string) {
  const locked = await repo.lockFreeze(client, userId);
  if (!locked) throw new AppError('NOT_FOUND', UNFREEZE_MSG.unknownUser);
  return locked;
}

/** The request a second admin decides, locked; a 409 when none waits. */
export async function lockPending(client: pg.PoolClient, userId: string) {
  const locked = await lockFreeze(client, userId);
  const pending = await repo.pendingUnfreeze(client, userId, true);
  if (!pending) throw new AppError('CONFLICT', UNFREEZE_MSG.nothingPending);
  return { locked, pending };
}

import {
  CHANGE_TTL_HOURS,
  rolesAllow,
  STAFF_MSG,
  type TPendingChange,
  type TPermission,
  type TStaffRole,
  type TStepUp,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { RealtimeHub } from '../realtime';
import type { StepUp, StepUpSubject } from '../step-up';
import { staffChangesRepository as repo, type StaffChangeRow } from './staff-changes.repository';

/** A staff member acting: who, with which roles, from where, and their session for the step-up. */
export type StaffActor = {
  userId: string;
  roles: readonly TStaffRole[];
  ip: string | null;
  session: StepUpSubject;
  client: Client;
};

/** What a proposal shows its approver, and what it is about. */
export type ChangeDescription<P> = {
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The customer (or staff member) it concerns: they may not approve it themselves. */
  subjectUserId: string | null;
  /** A newer proposal with the same target replaces a pending older one (a setting's key). */
  targetKey?: string | null;
  /** The payload as stored, when the kind normalises what it was given. */
  payload?: P;
};

/**
 * One kind of two-person change, defined by the module that owns what it changes and
 * registered once at composition (`app-services-admin.ts`). `describe` runs in the
 * proposal's transaction and refuses bad input (nothing is stored then); `apply` runs in
 * the approval's and checks again against the state of that moment.
 */
export type ChangeKind<P> = {
  kind: string;
  /** What the approver needs (default `changes.approve`). */
  approvedWith?: TPermission;
  /** A manual credit or adjustment of the subject: the 30-day rule on their payouts. */
  fundsSubject?: boolean;
  /** The audit row's action when it applies (default the kind). */
  auditAction?: string;
  describe(client: TxClient, payload: P, proposer: StaffActor): Promise<ChangeDescription<P>>;
  /** Applies it as the approver; what it returns is kept as the change's result. */
  apply(
    client: TxClient,
    payload: P,
    context: { change: StaffChangeRow; approver: StaffActor },
  ): Promise<Record<string, unknown> | null>;
};

export type StaffChanges = ReturnType<typeof createStaffChanges>;

/** How long after applying a manual credit its proposer and approver may not pay its customer. */
export const FUNDING_COOL_OFF_DAYS = 30;

export const presentChange = (c: StaffChangeRow): TPendingChange => ({
  id: c.id,
  kind: c.kind,
  summary: c.summary,
  before: (c.before as Record<string, unknown> | null) ?? null,
  after: (c.after as Record<string, unknown> | null) ?? null,
  proposedBy: { id: c.proposed_by, email: c.proposer_email },
  proposedAt: c.proposed_at.toISOString(),
  expiresAt: c.expires_at.toISOString(),
  subject:
    c.subject_user_id && c.subject_email ? { id: c.subject_user_id, email: c.subject_email } : null,
  status: c.status === 'pending' && c.expired ? 'expired' : c.status,
});

/**
 * Two people for every action that creates money, moves it or changes where it goes
 * (decision 0036). A proposal stores the change and changes nothing else; another staff
 * member holding the kind's permission approves it with a step-up, and it applies then, in
 * that transaction, under the change's row lock (parallel approvals apply it once). The
 * proposer, and the subject of the change, never approve it; a change waits 72 hours.
 */
export function createStaffChanges(deps: {
  pool: pg.Pool;
  audit: AuditLog;
  stepUp: Pick<StepUp, 'confirm' | 'admit'>;
  realtime: Pick<RealtimeHub, 'publish'>;
  /** Mail an approval queued (the customer told of the change) leaves once it commits. */
  outbox: Pick<Outbox, 'deliver'>;
}) {
  const { pool, audit, stepUp, realtime, outbox } = deps;
  /** Staff's queues refetch when a change is proposed or decided (on its transaction). */
  const announce = (client: TxClient, change: { id: string; proposed_by: string }) =>
    realtime.publish(client, {
      type: 'changes.changed',
      userId: change.proposed_by,
      changeId: change.id,
    });
  // biome-ignore lint/suspicious/noExplicitAny: each kind checks its own payload.
  const kinds = new Map<string, ChangeKind<any>>();

  const kindOf = (name: string) => {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`no change kind ${name} is registered`);
    return kind;
  };

  /** A proposal inside the caller's transaction; the caller confirms the step-up. */
  async function proposeIn<P>(
    client: TxClient,
    actor: StaffActor,
    kindName: string,
    payload: P,
  ): Promise<TPendingChange> {
    const kind = kindOf(kindName);
    const described = await kind.describe(client, payload, actor);
    const targetKey = described.targetKey ?? null;
    const replaced = targetKey
      ? await repo.replacePending(client, kind.kind, targetKey, actor.userId)
      : null;
    const id = await repo.insert(client, {
      kind: kind.kind,
      subjectUserId: described.subjectUserId,
      targetKey,
      fundsSubject: kind.fundsSubject ?? false,
      payload: described.payload ?? payload,
      summary: described.summary,
      before: described.before,
      after: described.after,
      proposedBy: actor.userId,
      ttlHours: CHANGE_TTL_HOURS,
    });
    await audit.record(client, {
      actorId: actor.userId,
      action: 'change.propose',
      targetType: 'staff_change',
      targetId: id,
      targetUserId: described.subjectUserId,
      before: described.before,
      after: { kind: kind.kind, ...described.after, ...(replaced ? { replaces: replaced } : {}) },
      reason: described.summary,
      ip: actor.ip,
    });
    const row = await repo.find(client, id);
    if (!row) throw new Error(`change ${id} vanished`);
    await announce(client, row);
    return presentChange(row);
  }

  /** Whether the actor may decide a change of this kind (the proposer may always withdraw). */
  function mayDecide(actor: StaffActor, kind: ChangeKind<unknown>): boolean {
    return rolesAllow(actor.roles, kind.approvedWith ?? 'changes.approve');
  }

  return {
    register<P>(kind: ChangeKind<P>): void {
      if (kinds.has(kind.kind)) throw new Error(`change kind ${kind.kind} registered twice`);
      kinds.set(kind.kind, kind);
    },

    proposeIn,

    /** A proposal in a transaction of its own, confirmed with the proposer's step-up. */
    async propose<P>(
      actor: StaffActor,
      kindName: string,
      payload: P,
      proof: TStepUp | undefined,
    ): Promise<TPendingChange> {
      return withTransaction(pool, async (client) => {
        const pending = await proposeIn(client, actor, kindName, payload);
        await stepUp.confirm(client, actor.session, proof, actor.client);
        return pending;
      });
    },

    /** What waits for a decision, oldest first: every kind, or those named. */
    async pending(kindsWanted: readonly string[] | null = null): Promise<TPendingChange[]> {
      return (await repo.pending(pool, kindsWanted)).map(presentChange);
    },

    async approve(
      actor: StaffActor,
      id: string,
      proof: TStepUp | undefined,
    ): Promise<TPendingChange> {
      const outcome = await withTransaction(pool, async (client) => {
        const change = await repo.lock(client, id);
        if (!change) throw new AppError('NOT_FOUND', STAFF_MSG.changeNotFound);
        if (change.status !== 'pending') throw new AppError('CONFLICT', STAFF_MSG.changeDecided);
        const kind = kindOf(change.kind);
        if (change.proposed_by === actor.userId)
          throw new AppError('FORBIDDEN', STAFF_MSG.ownProposal);
        if (change.subject_user_id === actor.userId) {
          throw new AppError('FORBIDDEN', STAFF_MSG.ownAccount);
        }
        if (!mayDecide(actor, kind)) throw new AppError('FORBIDDEN', STAFF_MSG.cannotDecide);
        if (change.expired) {
          // Recorded as expired (that much commits), then refused.
          await repo.decide(client, id, 'expired', null, null);
          return { expired: true as const };
        }
        // The approver's factor is admitted as the rules stand before the change (a change
        // that tightens them, passkeys required, must not refuse its own approval), and used
        // up after `apply` has locked its rows: the step-up's locks come last, as in every
        // other request, or this approval (step-up, then a customer's wallet) and a rejection
        // by the same staff member (the wallet, then the step-up) would wait for each other.
        const useFactor = await stepUp.admit(client, actor.session, proof, actor.client);
        const result = await kind.apply(client, change.payload, { change, approver: actor });
        await useFactor();
        await repo.decide(client, id, 'approved', actor.userId, result);
        await audit.record(client, {
          actorId: actor.userId,
          action: kind.auditAction ?? kind.kind,
          targetType: 'staff_change',
          targetId: id,
          targetUserId: change.subject_user_id,
          before: change.before,
          after: { ...(change.after as object | null), ...result, proposedBy: change.proposed_by },
          reason: change.summary,
          ip: actor.ip,
        });
        const decided = await repo.find(client, id);
        if (!decided) throw new Error(`change ${id} vanished`);
        await announce(client, decided);
        return { expired: false as const, change: presentChange(decided) };
      });
      if (outcome.expired) throw new AppError('CONFLICT', STAFF_MSG.changeExpired);
      await outbox.deliver();
      return outcome.change;
    },

    /** Rejected by someone who may approve it, or withdrawn by its proposer. */
    async reject(
      actor: StaffActor,
      id: string,
      proof: TStepUp | undefined,
    ): Promise<TPendingChange> {
      return withTransaction(pool, async (client) => {
        const change = await repo.lock(client, id);
        if (!change) throw new AppError('NOT_FOUND', STAFF_MSG.changeNotFound);
        if (change.status !== 'pending') throw new AppError('CONFLICT', STAFF_MSG.changeDecided);
        const kind = kindOf(change.kind);
        if (change.proposed_by !== actor.userId && !mayDecide(actor, kind)) {
          throw new AppError('FORBIDDEN', STAFF_MSG.cannotDecide);
        }
        await stepUp.confirm(client, actor.session, proof, actor.client);
        await repo.decide(client, id, 'rejected', actor.userId, null);
        await audit.record(client, {
          actorId: actor.userId,
          action: 'change.reject',
          targetType: 'staff_change',
          targetId: id,
          targetUserId: change.subject_user_id,
          before: { kind: change.kind, ...(change.after as object | null) },
          after: null,
          reason: change.summary,
          ip: actor.ip,
        });
        const decided = await repo.find(client, id);
        if (!decided) throw new Error(`change ${id} vanished`);
        await announce(client, decided);
        return presentChange(decided);
      });
    },

    /**
     * Refuses a payout decision by someone who proposed or approved a manual credit or
     * adjustment of the customer in the last 30 days: one person could otherwise mint a
     * balance on a customer they control and pay it out with the other's innocent help.
     */
    async assertNotFunder(db: pg.Pool | TxClient, staffId: string, customerId: string) {
      if (await repo.fundedRecently(db, staffId, customerId, FUNDING_COOL_OFF_DAYS)) {
        throw new AppError('FORBIDDEN', STAFF_MSG.fundedCustomer);
      }
    },
  };
}

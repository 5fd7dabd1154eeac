import { randomBytes } from 'node:crypto';
import { FROZEN_MSG, SECURITY_HOLD_HOURS, type TStepUp, type TUnfreezeState } from '@coffer/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import { sha256Hex } from '../../lib/crypto';
import { assertStrongPassword, hashPassword } from '../../lib/password';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { SecurityLog } from '../security-log';
import { endSessions, type SessionContext } from '../sessions';
import { SETTING_DEFAULTS } from '../settings';
import type { StepUp } from '../step-up';
import {
  type HoldState,
  type PendingUnfreeze,
  securityHoldRepository as repo,
} from './security-hold.repository';

/** What started a hold: the subject and first line of the mail that tells the customer. */
const EVENTS = {
  'password-reset': {
    subject: 'Your Coffer password was reset',
    what: 'The password of your Coffer account was reset with your recovery phrase, and every signed-in device was signed out.',
  },
  'two-factor-reset': {
    subject: 'Two-factor authentication was reset on your Coffer account',
    what: 'Two-factor authentication on your Coffer account was reset with your recovery phrase, and every other signed-in device was signed out. You will be asked to set it up again.',
  },
  'admin-two-factor-reset': {
    subject: 'Coffer support reset two-factor authentication on your account',
    what: 'Coffer support reset two-factor authentication on your account after checking your recovery phrase, and signed you out everywhere.',
  },
  'admin-two-factor-disable': {
    subject: 'Coffer support turned off two-factor authentication on your account',
    what: 'Coffer support turned off two-factor authentication on your account, and signed you out everywhere. If two-factor authentication is required, you will be asked to set it up again when you next sign in.',
  },
  'staff-two-factor-reset': {
    subject: 'Another admin reset two-factor authentication on your Coffer staff account',
    what: 'Another Coffer admin reset two-factor authentication on your staff account, and signed you out everywhere. Sign in with your password and set up a new second factor.',
  },
  'operator-two-factor-reset': {
    subject: 'Two-factor authentication was reset on your Coffer staff account',
    what: "The operator of this Coffer installation reset two-factor authentication on your staff account from the server's console, and signed you out everywhere. Sign in with your password and set up a new second factor.",
  },
} as const;

export type HoldEvent = keyof typeof EVENTS;

/** How long a "This wasn't me" link works: as long as any hold it was sent with. */
const FREEZE_LINK_HOURS = 7 * 24;

/** How long the set-password link mailed after an unfreeze works. */
const SET_PASSWORD_LINK_HOURS = 72;

export const UNFREEZE_MSG = {
  notFrozen: 'This account is not frozen.',
  alreadyRequested:
    'An unfreeze request is already waiting for this account: another admin approves or rejects it.',
  nothingPending: 'No unfreeze request is waiting for this account.',
  ownRequest: 'You asked for this unfreeze yourself: another admin must approve it (four eyes).',
  unknownUser: 'User not found',
} as const;

/** Who acts for staff: the session (for the step-up) and the address the request came from. */
type StaffActor = { session: SessionContext; client: Client };

const UTC = new Intl.DateTimeFormat('en-AU', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const whenText = (d: Date) => `${UTC.format(d)} UTC`;

function holdHours(values: Map<string, string>): number {
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

/** Whether a hold is on now: before its end, and while the phrase that was used is not replaced. */
export function holdActive(state: HoldState, now = new Date()): boolean {
  if (state.holdUntil === null) return false;
  return state.holdUntil > now || !state.hasPhrase;
}

/**
 * Throws while a freeze or a hold is on: SECURITY_HOLD says until when, in the message and
 * as `holdUntil` (null when only the missing recovery phrase keeps it on).
 */
function refuseWhileHeld(state: HoldState | null, paused: string): void {
  if (!state) return;
  if (state.frozenAt) {
    throw new AppError(
      'ACCOUNT_FROZEN',
      'Your account is frozen until Coffer support has reviewed it with you. Please contact support.',
    );
  }
  if (!holdActive(state)) return;
  const timed = state.holdUntil && state.holdUntil > new Date() ? state.holdUntil : null;
  const until = timed ? ` until ${whenText(timed)}` : '';
  const phrase = state.hasPhrase
    ? ''
    : ' Create a new recovery phrase and confirm it (Secret Combination) to end it once the time has passed.';
  throw new AppError(
    'SECURITY_HOLD',
    `Your account is under a security hold${until}: ${paused}.${phrase}`,
    undefined,
    { holdUntil: timed?.toISOString() ?? null },
  );
}

/**
 * Security holds (product.md S10): using the recovery phrase, or staff removing a second
 * factor, stops payouts, bank details and factor changes for `security_hold_hours` and,
 * where the phrase was burnt, until a new one exists; the customer is told at once, with
 * a one-click "This wasn't me" link that freezes the account until staff review it.
 */
export function createSecurityHold(deps: {
  pool: pg.Pool;
  settings: { all(client?: pg.PoolClient): Promise<Map<string, string>> };
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  audit: AuditLog;
  securityLog: Pick<SecurityLog, 'record'>;
  /** The fresh second factor each unfreeze step takes (decision 0015). */
  stepUp: Pick<StepUp, 'confirm'>;
  publicUrl: string;
}) {
  const presentPending = (p: PendingUnfreeze | null) =>
    p && {
      id: p.id,
      requestedBy: { id: p.requestedBy, email: p.requestedByEmail },
      requestedAt: p.requestedAt.toISOString(),
      reason: p.reason,
    };

  async function unfreezeState(
    db: pg.Pool | pg.PoolClient,
    userId: string,
  ): Promise<TUnfreezeState> {
    const state = await repo.freezeState(db, userId);
    if (!state) throw new AppError('NOT_FOUND', UNFREEZE_MSG.unknownUser);
    return { ...state, pending: presentPending(await repo.pendingUnfreeze(db, userId)) };
  }

  /** The account's freeze locked for this transaction; an unknown user is a 404. */
  async function lockFreeze(client: pg.PoolClient, userId: string) {
    const locked = await repo.lockFreeze(client, userId);
    if (!locked) throw new AppError('NOT_FOUND', UNFREEZE_MSG.unknownUser);
    return locked;
  }

  /** The request a second admin decides, locked; a 409 when none waits. */
  async function lockPending(client: pg.PoolClient, userId: string) {
    const locked = await lockFreeze(client, userId);
    const pending = await repo.pendingUnfreeze(client, userId, true);
    if (!pending) throw new AppError('CONFLICT', UNFREEZE_MSG.nothingPending);
    return { locked, pending };
  }

  return {
    /**
     * Starts a hold in the caller's transaction and queues the mail that says what happened,
     * from where, until when, with the freeze link. The caller delivers after its commit.
     */
    async start(
      client: pg.PoolClient,
      input: {
        userId: string;
        email: string;
        event: HoldEvent;
        from: Client | null;
        /** Staff's reason for the change, told to the account holder. */
        reason?: string;
      },
    ): Promise<Date> {
      const until = await repo.start(
        client,
        input.userId,
        holdHours(await deps.settings.all(client)),
      );
      const token = randomBytes(32).toString('base64url');
      await repo.addFreezeToken(client, input.userId, sha256Hex(token), FREEZE_LINK_HOURS);
      const link = `${deps.publicUrl}/freeze?token=${token}`;
      const event = EVENTS[input.event];
      await deps.securityLog.record(client, {
        userId: input.userId,
        kind: 'security-hold-started',
        client: input.from,
        detail: `Payouts, bank details and factor changes paused until ${whenText(until)}`,
      });
      const from = input.from
        ? `From: ${input.from.ip}${input.from.userAgent ? `, ${input.from.userAgent.slice(0, 120)}` : ''}`
        : 'From: Coffer support';
      await deps.outbox.mail(client, {
        to: input.email,
        subject: event.subject,
        text: [
          event.what,
          ...(input.reason ? ['', `Reason given: ${input.reason}`] : []),
          '',
          `When: ${whenText(new Date())}`,
          from,
          '',
          `For your safety, withdrawals, bank transfers, changes to your bank details and to two-factor authentication are on hold until ${whenText(until)}${input.event === 'password-reset' || input.event === 'two-factor-reset' || input.event === 'admin-two-factor-reset' ? ', and until you create a new recovery phrase and confirm it by typing it back (the one that was used no longer works)' : ''}.`,
          '',
          "If this wasn't you, freeze your account now. Nothing can be moved until Coffer support has reviewed it with you:",
          link,
          '',
          'If this was you, there is nothing more to do.',
        ].join('\n'),
      });
      return until;
    },

    /**
     * Why nobody may sign in to this account now, or null: frozen, or unfrozen but waiting
     * for its owner's new password. Every way in (the password, the phrase) asks this, and
     * the session look-up treats such an account's sessions as none.
     */
    async signInRefusal(userId: string): Promise<string | null> {
      const state = await repo.freezeState(deps.pool, userId);
      if (state?.frozen) return FROZEN_MSG.frozen;
      if (state?.awaitingNewPassword) return FROZEN_MSG.awaitingNewPassword;
      return null;
    },

    /** Refuses a payout, bank-details or factor change while a hold or a freeze is on. */
    async assertClear(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
      refuseWhileHeld(
        await repo.state(db, userId),
        'withdrawals, bank transfers, bank details and two-factor changes are paused',
      );
    },

    /**
     * The staff side of the same rule: a held or frozen admin changes nothing (no payout,
     * no balance, no factor, no other account, no setting). The gate calls it before every
     * state-changing admin route, so a route added later is covered without a word.
     */
    async assertStaffClear(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
      refuseWhileHeld(
        await repo.state(db, userId),
        'staff actions that move money, change a factor, a setting or another account are paused; reading still works',
      );
    },

    /** The customer's own view of their hold, for the screens. */
    async status(userId: string) {
      const state = await repo.state(deps.pool, userId);
      return {
        onHold: state ? holdActive(state) : false,
        holdUntil: state?.holdUntil?.toISOString() ?? null,
        needsNewPhrase: state ? holdActive(state) && !state.hasPhrase : false,
        frozen: state?.frozenAt != null,
      };
    },

    /**
     * "This wasn't me": the link freezes the account (every session ends, nothing moves) until
     * staff review it. Written to the audit log with no actor: the customer acted by link.
     */
    async freeze(token: string, ip: string): Promise<void> {
      const frozen = await withTransaction(deps.pool, async (client) => {
        const userId = await repo.useFreezeToken(client, sha256Hex(token));
        if (!userId) {
          throw new AppError(
            'NOT_FOUND',
            'This link is no longer valid. If you think someone else is using your account, contact support at once.',
          );
        }
        const email = await repo.freeze(client, userId);
        if (email === null) return false;
        const sessionsEnded = await endSessions(client, userId);
        await deps.securityLog.record(client, {
          userId,
          kind: 'account-frozen',
          client: { ip, userAgent: undefined },
          detail: 'With the "This wasn\'t me" link; every device was signed out',
        });
        await deps.outbox.mail(client, {
          to: email,
          subject: 'Your Coffer account is frozen',
          text: `Your Coffer account is frozen, as you asked, and every device was signed out. Nothing can be withdrawn or paid out until Coffer support has reviewed it with you: contact support.\n\nWhen: ${whenText(new Date())}\nFrom: ${ip}\n`,
        });
        await deps.audit.record(client, {
          actorId: null,
          action: 'user.freeze',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: { frozen: false },
          after: { frozen: true, sessionsEnded },
          reason: 'The customer\'s "This wasn\'t me" link',
          ip,
        });
        return true;
      });
      if (frozen) await deps.outbox.deliver();
    },

    /** Where an account's freeze review stands, for the users screen. */
    unfreezeState: (userId: string) => unfreezeState(deps.pool, userId),

    /**
     * One admin asks to lift a freeze, after reviewing the account with its owner, saying
     * how; nothing changes for the customer until another admin approves.
     */
    async requestUnfreeze(actor: StaffActor, userId: string, reason: string, proof: TStepUp) {
      const state = await withTransaction(deps.pool, async (client) => {
        const locked = await lockFreeze(client, userId);
        // Unfrozen but still waiting for the owner's new password (the link expired or never
        // arrived): the same two admins send a new link, as the approval does.
        if (!locked.frozenAt && !locked.newPasswordRequiredAt)
          throw new AppError('CONFLICT', UNFREEZE_MSG.notFrozen);
        if (await repo.pendingUnfreeze(client, userId))
          throw new AppError('CONFLICT', UNFREEZE_MSG.alreadyRequested);
        await deps.stepUp.confirm(client, actor.session, proof, actor.client);
        await repo.addUnfreezeRequest(client, {
          userId,
          requestedBy: actor.session.userId,
          reason,
        });
        // Staff's reason stays in the audit log: it may name what the customer told support.
        await deps.securityLog.record(client, { userId, kind: 'unfreeze-requested' });
        await deps.audit.record(client, {
          actorId: actor.session.userId,
          action: 'user.unfreeze.request',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: {
            frozen: locked.frozenAt !== null,
            frozenAt: locked.frozenAt?.toISOString() ?? null,
            awaitingNewPassword: locked.newPasswordRequiredAt !== null,
          },
          after: { unfreezeRequested: true },
          reason,
          ip: actor.client.ip,
        });
        return unfreezeState(client, userId);
      });
      return state;
    },

    /**
     * A second admin approves: the freeze ends, but the password does not come back (whoever
     * caused the freeze may know it). The owner gets a link to set a new one; until then
     * sign-in still refuses. Money waits `security_hold_hours` from now, as after any reset.
     */
    async approveUnfreeze(actor: StaffActor, userId: string, proof: TStepUp) {
      const result = await withTransaction(deps.pool, async (client) => {
        const { locked, pending } = await lockPending(client, userId);
        // Four eyes: refused before the step-up, so it costs the admin no code.
        if (pending.requestedBy === actor.session.userId)
          throw new AppError('FORBIDDEN', UNFREEZE_MSG.ownRequest);
        await deps.stepUp.confirm(client, actor.session, proof, actor.client);
        await repo.decideUnfreeze(client, {
          id: pending.id,
          decision: 'approved',
          decidedBy: actor.session.userId,
          reason: null,
        });
        await repo.unfreezeAwaitingPassword(client, userId);
        // Nothing should be signed in (the freeze ended every session and refuses new ones);
        // ended again here so that nothing survives the review whatever happened meanwhile.
        const sessionsEnded = await endSessions(client, userId);
        const token = randomBytes(32).toString('base64url');
        await repo.addSetPasswordToken(client, userId, sha256Hex(token), SET_PASSWORD_LINK_HOURS);
        const until = await repo.start(client, userId, holdHours(await deps.settings.all(client)));
        await deps.securityLog.record(client, {
          userId,
          kind: 'account-unfrozen',
          detail: 'Reviewed by two Coffer admins; a new password is needed to sign in',
        });
        await deps.securityLog.record(client, {
          userId,
          kind: 'security-hold-started',
          detail: `Payouts, bank details and factor changes paused until ${whenText(until)}`,
        });
        const link = `${deps.publicUrl}/set-password?token=${token}`;
        await deps.outbox.mail(client, {
          to: locked.email,
          subject: 'Your Coffer account is unfrozen: set a new password',
          text: [
            'Coffer support has reviewed your account with you and lifted the freeze.',
            '',
            'Your old password no longer works: whoever caused the freeze may know it. Set a new password with this link, then sign in:',
            link,
            '',
            `The link works once, for ${SET_PASSWORD_LINK_HOURS} hours. Setting the password signs out every device.`,
            '',
            `For your safety, withdrawals, bank transfers, changes to your bank details and to two-factor authentication stay on hold until ${whenText(until)}.`,
            '',
            'If you did not ask Coffer support to lift the freeze, do not use the link: contact support at once.',
          ].join('\n'),
        });
        await deps.audit.record(client, {
          actorId: actor.session.userId,
          action: 'user.unfreeze',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: {
            frozen: locked.frozenAt !== null,
            frozenAt: locked.frozenAt?.toISOString() ?? null,
            awaitingNewPassword: locked.newPasswordRequiredAt !== null,
            requestId: pending.id,
            requestedBy: pending.requestedBy,
          },
          after: {
            frozen: false,
            approvedBy: actor.session.userId,
            newPasswordRequired: true,
            holdUntil: until.toISOString(),
            sessionsEnded,
          },
          reason: pending.reason,
          ip: actor.client.ip,
        });
        return unfreezeState(client, userId);
      });
      await deps.outbox.deliver();
      return result;
    },

    /** An admin (the one who asked, or another) turns the request down: the account stays shut. */
    async rejectUnfreeze(actor: StaffActor, userId: string, reason: string, proof: TStepUp) {
      return withTransaction(deps.pool, async (client) => {
        const { pending } = await lockPending(client, userId);
        await deps.stepUp.confirm(client, actor.session, proof, actor.client);
        await repo.decideUnfreeze(client, {
          id: pending.id,
          decision: 'rejected',
          decidedBy: actor.session.userId,
          reason,
        });
        await deps.securityLog.record(client, { userId, kind: 'unfreeze-rejected' });
        await deps.audit.record(client, {
          actorId: actor.session.userId,
          action: 'user.unfreeze.reject',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: {
            requestId: pending.id,
            requestedBy: pending.requestedBy,
            requestReason: pending.reason,
          },
          after: { rejectedBy: actor.session.userId },
          reason,
          ip: actor.client.ip,
        });
        return unfreezeState(client, userId);
      });
    },

    /**
     * The link mailed after an unfreeze: the owner's new password (the sign-up rule), every
     * session ended, and sign-in works again. The link works once.
     */
    async setPasswordWithLink(token: string, newPassword: string, from: Client): Promise<void> {
      const hash = sha256Hex(token);
      const owner = await repo.setPasswordTokenOwner(deps.pool, hash);
      if (!owner) throw new AppError('NOT_FOUND', FROZEN_MSG.setPasswordLinkInvalid);
      await assertStrongPassword(newPassword, owner.email);
      const passwordHash = await hashPassword(newPassword);
      await withTransaction(deps.pool, async (client) => {
        // Used up here, under its row lock: a second use (or a parallel one) finds it used.
        const userId = await repo.useSetPasswordToken(client, hash);
        if (userId !== owner.userId)
          throw new AppError('NOT_FOUND', FROZEN_MSG.setPasswordLinkInvalid);
        await repo.setNewPassword(client, userId, passwordHash);
        const ended = await endSessions(client, userId);
        await deps.securityLog.record(client, {
          userId,
          kind: 'password-set-by-link',
          client: from,
          detail: ended > 0 ? 'Every device was signed out' : null,
        });
        await deps.outbox.mail(client, {
          to: owner.email,
          subject: 'Your new Coffer password is set',
          text: `The new password of your Coffer account is set: you can sign in with it now.\n\nWhen: ${whenText(new Date())}\nFrom: ${from.ip}\n\nIf this was not you, contact support at once.\n`,
        });
      });
      await deps.outbox.deliver();
    },
  };
}

export type SecurityHold = ReturnType<typeof createSecurityHold>;

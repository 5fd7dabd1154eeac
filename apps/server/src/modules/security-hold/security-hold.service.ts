import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import { sha256Hex } from '../../lib/crypto';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { SecurityLog } from '../security-log';
import { endSessions } from '../sessions';
import { SETTING_DEFAULTS } from '../settings';
import { type HoldState, securityHoldRepository as repo } from './security-hold.repository';

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
  // An unreadable setting holds for the default rather than not at all.
  return Number.isFinite(hours) && hours >= 1 && hours <= 24 * 30 ? hours : 48;
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
 * Security holds (DEVIATIONS S10): using the recovery phrase, or staff removing a second
 * factor, stops payouts, bank details and factor changes for `security_hold_hours` and,
 * where the phrase was burnt, until a new one exists; the customer is told at once, with
 * a one-click "This wasn't me" link that freezes the account until staff review it.
 */
export function createSecurityHold(deps: {
  pool: pg.Pool;
  settings: { all(): Promise<Map<string, string>> };
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  audit: AuditLog;
  securityLog: Pick<SecurityLog, 'record'>;
  publicUrl: string;
}) {
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
      const until = await repo.start(client, input.userId, holdHours(await deps.settings.all()));
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
        link,
      });
      return until;
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

    /** Staff lift a freeze after review; audited with their reason. */
    async unfreeze(actor: { adminId: string; ip: string | null }, userId: string, reason: string) {
      await withTransaction(deps.pool, async (client) => {
        const was = await repo.unfreeze(client, userId);
        if (was === null) throw new AppError('CONFLICT', 'This account is not frozen.');
        // Staff's reason stays in the audit log: it may name what the customer told support.
        await deps.securityLog.record(client, { userId, kind: 'account-unfrozen' });
        await deps.audit.record(client, {
          actorId: actor.adminId,
          action: 'user.unfreeze',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: { frozen: true, frozenAt: was.toISOString() },
          after: { frozen: false },
          reason,
          ip: actor.ip,
        });
      });
    },
  };
}

export type SecurityHold = ReturnType<typeof createSecurityHold>;

import { randomBytes } from 'node:crypto';
import type { Client } from '@server/lib/client-of';
import { sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import { securityHoldRepository as repo } from './security-hold.repository';
import { holdHours, type SecurityHoldContext, whenText } from './security-hold-context';

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

/** What started a hold, on whose account, and from where. */
export type HoldStart = {
  userId: string;
  email: string;
  event: HoldEvent;
  from: Client | null;
  /** Staff's reason for the change, told to the account holder. */
  reason?: string;
};

/** How long a "This wasn't me" link works: as long as any hold it was sent with. */
const FREEZE_LINK_HOURS = 7 * 24;

/**
 * Starts a hold in the caller's transaction and queues the mail that says what happened,
 * from where, until when, with the freeze link. The caller delivers after its commit.
 */
export async function startHold(
  deps: SecurityHoldContext,
  client: pg.PoolClient,
  input: HoldStart,
): Promise<Date> {
  const until = await repo.start(client, input.userId, holdHours(await deps.settings.all(client)));
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
}

import {
  BACKUP_CODE_LENGTH,
  cleanBackupCodeInput,
  SECOND_FACTOR_NAMES,
  STEP_UP_MSG,
  type TPasskeyAssertion,
  type TStepUp,
} from '@coffer/shared';
import { afterTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { Secrets } from '@server/lib/crypto';
import { matchTotpStep } from '@server/lib/totp';
import type pg from 'pg';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { SessionContext } from '../sessions';
import { stepUpRepository as repo } from './step-up.repository';

/** Who asks: the session's user, and what the policies below look at. */
export type StepUpSubject = Pick<
  SessionContext,
  'userId' | 'sessionId' | 'isAdmin' | 'twoFactorEnabled'
>;

type Deps = {
  secrets: Secrets;
  limiter: RateLimiter;
  /**
   * Checks a passkey's answer against the session's challenge and uses both up on the
   * transaction (the passkeys module's; passed in, as passkeys itself asks for step-ups).
   */
  acceptAssertion: (
    client: pg.PoolClient,
    s: StepUpSubject,
    assertion: TPasskeyAssertion,
  ) => Promise<unknown>;
  /** Why an authenticator code may not confirm for this session (admins held to passkeys). */
  totpRefusal: (s: StepUpSubject, client: pg.PoolClient) => Promise<string | null>;
  /**
   * The security log's writer for an entry that must outlast the caller's rollback (named
   * by shape: the security log's module reads the account-security one, which asks for
   * step-ups).
   */
  securityLog: {
    recordBesideTransaction(entry: {
      userId: string;
      kind: 'step-up-failed';
      client: Client;
      detail: string;
    }): Promise<void>;
  };
};

/** The factor a proof was given with, as the security log names it. */
function factorName(proof: TStepUp): string {
  if ('assertion' in proof) return SECOND_FACTOR_NAMES.passkey;
  return /^\d{6}$/.test(proof.code.trim())
    ? SECOND_FACTOR_NAMES.code
    : SECOND_FACTOR_NAMES.backupCode;
}

/**
 * Step-up: a withdrawal, a bank payout, saving bank details, changing the
 * password and removing a factor each take a fresh second factor with the request. One
 * place checks it, so every such route accepts the same proofs and counts the same guesses.
 */
export function createStepUp(d: Deps) {
  /** The same key as the two-factor module's backup codes, so the same codes match. */
  const backupHash = (userId: string, code: string) =>
    d.secrets.keyedHash('backup-code', `${userId}:${code}`);

  /**
   * What a proof turned out to be: right (and now used up on the transaction), wrong (a
   * guess), or right but already used, by an earlier request or a parallel one that got
   * there first. A used answer is refused like a wrong one, but it is no guess: whoever sent
   * it knew the code, so it does not count towards the limit.
   */
  async function accepts(
    client: pg.PoolClient,
    s: StepUpSubject,
    proof: TStepUp,
  ): Promise<'accepted' | 'wrong' | 'used'> {
    if ('assertion' in proof) {
      // A passkey that does not verify throws its own message (stale challenge, not yours).
      await d.acceptAssertion(client, s, proof.assertion);
      return 'accepted';
    }
    const code = proof.code.trim();
    if (/^\d{6}$/.test(code)) {
      const secret = await repo.totpSecret(client, s.userId);
      const step = secret ? matchTotpStep(d.secrets.decrypt(secret), code) : null;
      if (step === null) return 'wrong';
      return (await repo.claimTotpStep(client, s.userId, step)) ? 'accepted' : 'used';
    }
    const backup = cleanBackupCodeInput(code);
    if (backup.length !== BACKUP_CODE_LENGTH) return 'wrong';
    const hash = backupHash(s.userId, backup);
    if (await repo.useBackupCode(client, s.userId, hash)) return 'accepted';
    return (await repo.isUsedBackupCode(client, s.userId, hash)) ? 'used' : 'wrong';
  }

  /**
   * A wrong answer after the session was made: like a refused sign-in, the owner's log
   * shows it (someone may be using their session), though the request changed nothing.
   * Written once the request's transaction has ended (`afterTransaction`): it needs a
   * connection of its own, and must not wait for one while holding the step-up lock.
   */
  async function refused(s: StepUpSubject, proof: TStepUp, who: Client) {
    await d.securityLog.recordBesideTransaction({
      userId: s.userId,
      kind: 'step-up-failed',
      client: who,
      detail: factorName(proof),
    });
  }

  /**
   * The checks that use nothing up and lock nothing: a factor to confirm with, a proof, and
   * the policy (admins held to passkeys) as it stands now.
   */
  async function admissible(client: pg.PoolClient, s: StepUpSubject, proof: TStepUp | undefined) {
    if (!s.twoFactorEnabled) throw new AppError('FORBIDDEN', STEP_UP_MSG.noFactor);
    if (!proof) throw new AppError('VALIDATION_FAILED', STEP_UP_MSG.required);
    if ('code' in proof) {
      // A refusal by policy is no guess: refused before the count.
      const refusal = await d.totpRefusal(s, client);
      if (refusal) throw new AppError('FORBIDDEN', refusal);
    }
    return proof;
  }

  /**
   * Counts, checks and uses up an admissible proof. One step-up of an account at a time,
   * until the caller's transaction ends: each is counted, checked and (if right) taken off
   * the count before the next is counted, so parallel requests with right answers never add
   * up to the limit between them.
   *
   * The account's locks (this advisory lock, and the authenticator's or passkey's row a
   * right answer updates) are held until the caller's transaction ends, so they come LAST,
   * after every row the caller locks (and before only the audit log's): two requests of one
   * staff member, one holding a customer's wallet and waiting for the step-up, the other
   * holding the step-up and waiting for that wallet, would each wait for the other.
   */
  async function use(client: pg.PoolClient, s: StepUpSubject, proof: TStepUp, who: Client) {
    await repo.lockSubject(client, s.userId);
    const limits = LIMITS.stepUp(s.userId, who.ip);
    const attempt = await d.limiter.consume(limits);
    const outcome = await accepts(client, s, proof).catch(async (err: unknown) => {
      // A passkey's answer that did not verify is refused with its own message.
      if (err instanceof AppError && err.code === 'INVALID_CODE')
        await afterTransaction(() => refused(s, proof, who));
      // The database failing the check (a deadlock, a lost connection) is no guess.
      else if (!(err instanceof AppError)) await attempt.release();
      throw err;
    });
    if (outcome !== 'accepted') {
      if (outcome === 'used') await attempt.release();
      await afterTransaction(() => refused(s, proof, who));
      throw new AppError('INVALID_CODE', STEP_UP_MSG.invalid);
    }
    await attempt.release();
    // As at sign-in: a right answer ends the account's count of earlier step-up typos.
    await d.limiter.clear(limits.slice(0, 1).map((l) => l.key));
  }

  return {
    /**
     * Uses up the proof on the caller's transaction, after the caller's own checks and row
     * locks (so a refused request never costs the customer a code, and the account's locks
     * come last: see `use`), or throws. Only a wrong answer counts towards the step-up
     * limit, which is its own: wrong step-ups lock further step-ups for a while, never the
     * account's sign-in (`LIMITS.stepUp`).
     */
    async confirm(
      client: pg.PoolClient,
      s: StepUpSubject,
      proof: TStepUp | undefined,
      who: Client,
    ): Promise<void> {
      await use(client, s, await admissible(client, s, proof), who);
    },

    /**
     * `confirm` in two steps, for a change that may alter the rules a proof is judged by (a
     * staff change requiring passkeys must not refuse its own approval): the proof is
     * admitted now, by the rules as they stand (a factor, a proof, the passkey policy); the
     * returned function, called once the change has taken its row locks, counts it, checks
     * it and uses it up (the account's locks last, as in `confirm`).
     */
    async admit(
      client: pg.PoolClient,
      s: StepUpSubject,
      proof: TStepUp | undefined,
      who: Client,
    ): Promise<() => Promise<void>> {
      const admitted = await admissible(client, s, proof);
      return () => use(client, s, admitted, who);
    },
  };
}

export type StepUp = ReturnType<typeof createStepUp>;

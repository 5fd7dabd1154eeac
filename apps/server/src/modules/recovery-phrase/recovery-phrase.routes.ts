import {
  RECOVERY_PHRASE_MSG,
  ZConfirmPhraseRequest,
  ZConfirmPhraseResponse,
  ZGeneratePhraseResponse,
  ZOk,
  ZRecoveryPhraseResponse,
  ZVerifyPasswordRequest,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { type Client, clientOf } from '@server/lib/client-of';
import { signedIn } from '@server/plugins/require-session';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Sessions } from '../sessions';
import type { RecoveryPhraseService } from './recovery-phrase.service';

/** How long the phrase stays readable after the password was re-entered. */
const UNLOCK_SECONDS = 10 * 60;

/**
 * The phrase is a customer's way back into their own account. Staff never use one (another
 * admin, or the operator's `reset-admin-2fa`, restores them: decision 0027), so no staff
 * session makes, reads, unlocks or confirms one here, not even the phrase an account kept
 * from before it was made staff: an admin session that reads phrases would let a stolen
 * admin session take over that account for good.
 */
function customerOf(request: FastifyRequest) {
  const session = signedIn(request);
  if (session.isAdmin) throw new AppError('FORBIDDEN', RECOVERY_PHRASE_MSG.staff);
  return session;
}

export function recoveryPhraseRoutes(deps: {
  phrases: RecoveryPhraseService;
  // Structural: the auth module builds on the phrase service, so this one does not import it.
  auth: { checkPassword(userId: string, password: string, client: Client): Promise<void> };
  sessions: Pick<Sessions, 'unlockPhrase'>;
}): FastifyPluginAsyncZod {
  function unlockedSession(request: FastifyRequest) {
    const session = customerOf(request);
    const until = session.phraseUnlockedUntil;
    if (!until || until.getTime() <= Date.now()) {
      throw new AppError('PASSWORD_REQUIRED', 'Enter your password to see your recovery phrase.');
    }
    return session;
  }

  return async (app) => {
    app.post(
      '/api/recovery-phrase/unlock',
      { schema: { body: ZVerifyPasswordRequest, response: { 200: ZOk } } },
      async (request) => {
        const session = customerOf(request);
        await deps.auth.checkPassword(session.userId, request.body.password, clientOf(request));
        await deps.sessions.unlockPhrase(session.sessionId, UNLOCK_SECONDS);
        return { ok: true as const };
      },
    );

    app.get(
      '/api/recovery-phrase',
      { schema: { response: { 200: ZRecoveryPhraseResponse } } },
      async (request) => {
        const found = await deps.phrases.read(unlockedSession(request).userId);
        return {
          phrase: found?.phrase ?? null,
          createdAt: found?.createdAt.toISOString() ?? null,
          confirmedAt: found?.confirmedAt?.toISOString() ?? null,
        };
      },
    );

    app.post(
      '/api/recovery-phrase/generate',
      { schema: { response: { 200: ZGeneratePhraseResponse } } },
      async (request) => {
        const result = await deps.phrases.ensure(
          unlockedSession(request).userId,
          clientOf(request),
        );
        return {
          phrase: result.phrase,
          createdAt: result.createdAt.toISOString(),
          confirmedAt: result.confirmedAt?.toISOString() ?? null,
          created: result.created,
        };
      },
    );

    // No password unlock needed: the answer is the phrase itself, which only someone who can
    // read it (behind the password) or wrote it down knows, and every try is counted.
    app.post(
      '/api/recovery-phrase/confirm',
      { schema: { body: ZConfirmPhraseRequest, response: { 200: ZConfirmPhraseResponse } } },
      async (request) => {
        const confirmedAt = await deps.phrases.confirm(
          customerOf(request).userId,
          request.body.phrase,
          clientOf(request),
        );
        return { confirmedAt: confirmedAt.toISOString() };
      },
    );
  };
}

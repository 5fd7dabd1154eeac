import { normalizePhrase, PHRASE_CONFIRM_MSG } from '@coffer/shared';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type pg from 'pg';
import { createDbOn } from '../../db/client';
import { type TxClient, withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import type { Secrets } from '../../lib/crypto';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { SecurityLog } from '../security-log';
import { createSeedPhrasesRepository } from './recovery-phrase.repository';

type Deps = {
  pool: pg.Pool;
  phrases: ReturnType<typeof createSeedPhrasesRepository>;
  secrets: Secrets;
  limiter: RateLimiter;
  securityLog: Pick<SecurityLog, 'record'>;
};

const HASH_PURPOSE = 'recovery-phrase';

/** One BIP-39 phrase per user for life, readable only by its owner (DEVIATIONS S1). */
export function createRecoveryPhraseService({
  pool,
  phrases,
  secrets,
  limiter,
  securityLog,
}: Deps) {
  const hashOf = (phrase: string) => secrets.keyedHash(HASH_PURPOSE, normalizePhrase(phrase));

  return {
    hashOf,

    /**
     * Creates the user's phrase if it has none: 128 bits from the CSPRNG, 12 words. A
     * replacement for a burnt phrase is stored unconfirmed (see the repository's insert).
     */
    async ensure(
      userId: string,
      from: Client | null = null,
    ): Promise<{ phrase: string; createdAt: Date; confirmedAt: Date | null; created: boolean }> {
      const phrase = generateMnemonic(wordlist, 128);
      const created = await withTransaction(pool, async (client) => {
        const made = await createSeedPhrasesRepository(createDbOn(client)).insertIfAbsent({
          userId,
          encrypted: secrets.encrypt(phrase),
          hash: hashOf(phrase),
        });
        if (made)
          await securityLog.record(client, { userId, kind: 'phrase-created', client: from });
        return made;
      });
      const row = await phrases.findByUser(userId);
      if (!row) throw new Error('recovery phrase vanished after insert');
      return {
        phrase: secrets.decrypt(row.seedPhraseEncrypted),
        createdAt: row.createdAt,
        confirmedAt: row.confirmedAt,
        created,
      };
    },

    async read(
      userId: string,
    ): Promise<{ phrase: string; createdAt: Date; confirmedAt: Date | null } | null> {
      const row = await phrases.findByUser(userId);
      if (!row) return null;
      return {
        phrase: secrets.decrypt(row.seedPhraseEncrypted),
        createdAt: row.createdAt,
        confirmedAt: row.confirmedAt,
      };
    },

    /**
     * The customer proves they wrote the phrase down by typing all of it back. Counted on
     * the same limit as every other phrase check before it is compared, so this is no
     * cheaper way to guess; a right answer is released. Confirming sets `confirmed_at`,
     * which is what lets a security hold end (DEVIATIONS S10). The words are never logged.
     */
    async confirm(userId: string, candidate: string, from: Client): Promise<Date> {
      const row = await phrases.findByUser(userId);
      // Not a guess: there is nothing to compare with, so nothing is counted.
      if (!row) throw new AppError('CONFLICT', PHRASE_CONFIRM_MSG.noPhrase);
      const attempt = await limiter.consume(LIMITS.phrase(userId, from.ip));
      const hash = hashOf(candidate);
      if (row.phraseHash !== hash) {
        throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CONFIRM_MSG.mismatch);
      }
      await attempt.release();
      const confirmedAt = await withTransaction(pool, async (client) => {
        const done = await createSeedPhrasesRepository(createDbOn(client)).confirm(userId, hash);
        // Burnt and replaced between the look-up and now: the words typed are no longer it.
        if (!done) throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CONFIRM_MSG.mismatch);
        // Only the first confirmation is news; a repeat changes nothing and logs nothing.
        if (done.first) {
          await securityLog.record(client, { userId, kind: 'phrase-confirmed', client: from });
        }
        return done.confirmedAt;
      });
      return confirmedAt;
    },

    async matches(userId: string, candidate: string): Promise<boolean> {
      const row = await phrases.findByUser(userId);
      return row !== null && row.phraseHash === hashOf(candidate);
    },

    /** Burns the user's phrase in the caller's transaction, once it has been used (S10). */
    async burn(client: TxClient, userId: string): Promise<void> {
      await createSeedPhrasesRepository(createDbOn(client)).burn(userId);
    },

    async findUserByPhrase(candidate: string): Promise<string | null> {
      return phrases.findUserIdByHash(hashOf(candidate));
    },
  };
}

export type RecoveryPhraseService = ReturnType<typeof createRecoveryPhraseService>;

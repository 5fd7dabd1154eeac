import { randomInt } from 'node:crypto';
import {
  normalizePhrase,
  PHRASE_CHECK_MSG,
  PHRASE_CHECK_WORDS,
  PHRASE_CONFIRM_MSG,
  RECOVERY_PHRASE_WORDS,
} from '@coffer/shared';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { createDbOn } from '@server/db/client';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { Secrets } from '@server/lib/crypto';
import type pg from 'pg';
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

/** One BIP-39 phrase per user for life, readable only by its owner (product.md S1). */
export function createRecoveryPhraseService({
  pool,
  phrases,
  secrets,
  limiter,
  securityLog,
}: Deps) {
  const hashOf = (phrase: string) => secrets.keyedHash(HASH_PURPOSE, normalizePhrase(phrase));

  /**
   * Stores `phrase` as the user's unless they have one, on the caller's transaction, with
   * its security event; whether it was stored. A replacement for a burnt phrase is stored
   * unconfirmed (see the repository's insert).
   */
  async function adopt(
    client: TxClient,
    userId: string,
    phrase: string,
    from: Client | null,
  ): Promise<boolean> {
    const made = await createSeedPhrasesRepository(createDbOn(client)).insertIfAbsent({
      userId,
      encrypted: secrets.encrypt(phrase),
      hash: hashOf(phrase),
    });
    if (made) await securityLog.record(client, { userId, kind: 'phrase-created', client: from });
    return made;
  }

  return {
    hashOf,
    adopt,

    /** A new phrase, not stored: 128 bits from the CSPRNG, 12 words. */
    generate(): string {
      return generateMnemonic(wordlist, 128);
    },

    /** Which words (positions 1 to 12, ascending) a customer types back: three, at random. */
    pickCheckPositions(): number[] {
      const picked = new Set<number>();
      while (picked.size < PHRASE_CHECK_WORDS) picked.add(randomInt(RECOVERY_PHRASE_WORDS) + 1);
      return [...picked].sort((a, b) => a - b);
    },

    /**
     * The words typed back at `positions` of a phrase just shown (not yet stored), before
     * anything that relies on it being written down. Counted on the phrase-check limit
     * before they are compared, like every other phrase check; right ones are released.
     * Refusals name the wrong positions (a 400), never the words.
     */
    async checkWords(input: {
      userId: string;
      ip: string;
      phrase: string;
      positions: number[];
      words: string[];
    }): Promise<void> {
      const { positions, words } = input;
      const blank = positions.filter((_, i) => !words[i]);
      // Not a guess: nothing to compare, so nothing is counted.
      if (words.length !== positions.length || blank.length > 0) {
        throw new AppError(
          'VALIDATION_FAILED',
          PHRASE_CHECK_MSG.missing(blank.length > 0 ? blank : positions),
        );
      }
      const attempt = await limiter.consume(LIMITS.phrase(input.userId, input.ip));
      const shown = normalizePhrase(input.phrase).split(' ');
      const wrong = positions.filter((p, i) => normalizePhrase(words[i] ?? '') !== shown[p - 1]);
      if (wrong.length > 0) {
        throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CHECK_MSG.wrong(wrong));
      }
      await attempt.release();
    },

    /**
     * Creates the user's phrase if it has none. A replacement for a burnt phrase is stored
     * unconfirmed (see the repository's insert).
     */
    async ensure(
      userId: string,
      from: Client | null = null,
    ): Promise<{ phrase: string; createdAt: Date; confirmedAt: Date | null; created: boolean }> {
      const phrase = generateMnemonic(wordlist, 128);
      const created = await withTransaction(pool, (client) => adopt(client, userId, phrase, from));
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
     * which is what lets a security hold end (product.md S10). The words are never logged.
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

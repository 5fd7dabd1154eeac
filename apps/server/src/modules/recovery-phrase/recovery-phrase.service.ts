import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { type TxClient, withTransaction } from '@server/db/tx';
import type { Client } from '@server/lib/client-of';
import { checkWords, pickCheckPositions } from './check-words';
import { confirmPhrase } from './confirm-phrase';
import { seedPhrasesRepository as repo } from './recovery-phrase.repository';
import { hashOf, type RecoveryPhraseContext } from './recovery-phrase-context';

/**
 * The recovery phrase service composed: the words typed back and the confirmation are each
 * their own file taking the shared context (`recovery-phrase-context.ts`).
 */

type StoredPhrase = { phrase: string; createdAt: Date; confirmedAt: Date | null };

/** One BIP-39 phrase per user for life, readable only by its owner (product.md S1). */
export function createRecoveryPhraseService(ctx: RecoveryPhraseContext) {
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
    const made = await repo.insertIfAbsent(client, {
      userId,
      encrypted: ctx.secrets.encrypt(phrase),
      hash: hashOf(ctx, phrase),
    });
    if (made) {
      await ctx.securityLog.record(client, { userId, kind: 'phrase-created', client: from });
    }
    return made;
  }

  async function read(userId: string): Promise<StoredPhrase | null> {
    const row = await repo.findByUser(ctx.pool, userId);
    if (!row) return null;
    return {
      phrase: ctx.secrets.decrypt(row.seed_phrase_encrypted),
      createdAt: row.created_at,
      confirmedAt: row.confirmed_at,
    };
  }

  return {
    hashOf: (phrase: string): string => hashOf(ctx, phrase),
    adopt,

    /** A new phrase, not stored: 128 bits from the CSPRNG, 12 words. */
    generate(): string {
      return generateMnemonic(wordlist, 128);
    },

    pickCheckPositions,

    checkWords: (input: Parameters<typeof checkWords>[1]): Promise<void> => checkWords(ctx, input),

    /**
     * Creates the user's phrase if it has none. A replacement for a burnt phrase is stored
     * unconfirmed (see the repository's insert).
     */
    async ensure(
      userId: string,
      from: Client | null = null,
    ): Promise<StoredPhrase & { created: boolean }> {
      const phrase = generateMnemonic(wordlist, 128);
      const created = await withTransaction(ctx.pool, (client) =>
        adopt(client, userId, phrase, from),
      );
      const stored = await read(userId);
      if (!stored) throw new Error('recovery phrase vanished after insert');
      return { ...stored, created };
    },

    read,

    confirm: (userId: string, candidate: string, from: Client): Promise<Date> =>
      confirmPhrase(ctx, userId, candidate, from),

    async matches(userId: string, candidate: string): Promise<boolean> {
      const row = await repo.findByUser(ctx.pool, userId);
      return row !== null && row.phrase_hash === hashOf(ctx, candidate);
    },

    /** Burns the user's phrase in the caller's transaction, once it has been used (S10). */
    async burn(client: TxClient, userId: string): Promise<void> {
      await repo.burn(client, userId);
    },

    async findUserByPhrase(candidate: string): Promise<string | null> {
      return repo.findUserIdByHash(ctx.pool, hashOf(ctx, candidate));
    },
  };
}

export type RecoveryPhraseService = ReturnType<typeof createRecoveryPhraseService>;

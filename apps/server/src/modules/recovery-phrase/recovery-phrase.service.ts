import { normalizePhrase } from '@coffer/shared';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { createDbOn } from '../../db/client';
import type { TxClient } from '../../db/tx';
import type { Secrets } from '../../lib/crypto';
import { createSeedPhrasesRepository } from './recovery-phrase.repository';

type Deps = { phrases: ReturnType<typeof createSeedPhrasesRepository>; secrets: Secrets };

const HASH_PURPOSE = 'recovery-phrase';

/** One BIP-39 phrase per user for life, readable only by its owner (DEVIATIONS S1). */
export function createRecoveryPhraseService({ phrases, secrets }: Deps) {
  const hashOf = (phrase: string) => secrets.keyedHash(HASH_PURPOSE, normalizePhrase(phrase));

  return {
    hashOf,

    /** Creates the user's phrase if it has none: 128 bits from the CSPRNG, 12 words. */
    async ensure(userId: string): Promise<{ phrase: string; createdAt: Date; created: boolean }> {
      const phrase = generateMnemonic(wordlist, 128);
      const created = await phrases.insertIfAbsent({
        userId,
        encrypted: secrets.encrypt(phrase),
        hash: hashOf(phrase),
      });
      const row = await phrases.findByUser(userId);
      if (!row) throw new Error('recovery phrase vanished after insert');
      return {
        phrase: secrets.decrypt(row.seedPhraseEncrypted),
        createdAt: row.createdAt,
        created,
      };
    },

    async read(userId: string): Promise<{ phrase: string; createdAt: Date } | null> {
      const row = await phrases.findByUser(userId);
      if (!row) return null;
      return { phrase: secrets.decrypt(row.seedPhraseEncrypted), createdAt: row.createdAt };
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

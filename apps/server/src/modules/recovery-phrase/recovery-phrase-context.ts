import { normalizePhrase } from '@coffer/shared';
import type { Secrets } from '@server/lib/crypto';
import type pg from 'pg';
import type { RateLimiter } from '../rate-limit';
import type { SecurityLog } from '../security-log';

/**
 * What the parts of the recovery phrase service share: its dependencies, given once to
 * `createRecoveryPhraseService`.
 */
export type RecoveryPhraseContext = {
  pool: pg.Pool;
  secrets: Secrets;
  limiter: RateLimiter;
  securityLog: Pick<SecurityLog, 'record'>;
};

const HASH_PURPOSE = 'recovery-phrase';

/** The keyed hash a phrase is looked up by, the same however its words were typed. */
export function hashOf(ctx: RecoveryPhraseContext, phrase: string): string {
  return ctx.secrets.keyedHash(HASH_PURPOSE, normalizePhrase(phrase));
}

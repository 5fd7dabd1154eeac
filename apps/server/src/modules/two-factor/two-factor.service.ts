import type { TStepUp, TTwoFactorEnableRequest, TTwoFactorVerifyRequest } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { requiresTwoFactor } from '@server/plugins/gate';
import type { Client } from '../auth';
import type { SessionContext } from '../sessions';
import { enableTwoFactor } from './enable-two-factor';
import { cancelSetup, setUpTwoFactor } from './set-up-two-factor';
import { disableTwoFactor, resetForOperator, resetWithPhrase } from './turn-off-two-factor';
import { twoFactorRepository as repo } from './two-factor.repository';
import type { TwoFactorContext } from './two-factor-context';
import { verifyTwoFactor } from './verify-two-factor';

/**
 * The two-factor service composed: setting up, enabling, verifying and turning off are each
 * their own file taking the shared context (`two-factor-context.ts`).
 */
export function createTwoFactorService(ctx: TwoFactorContext) {
  return {
    async status(userId: string, s: SessionContext) {
      return {
        enabled: s.twoFactorEnabled,
        required: requiresTwoFactor(s),
        backupCodesLeft: s.twoFactorEnabled
          ? await repo.countUnusedBackupCodes(ctx.pool, userId)
          : 0,
      };
    },

    setup: (s: SessionContext) => setUpTwoFactor(ctx, s),

    cancel: (s: SessionContext): Promise<void> => cancelSetup(ctx, s),

    enable: (s: SessionContext, input: TTwoFactorEnableRequest, client: Client): Promise<string> =>
      enableTwoFactor(ctx, s, input, client),

    verify: (s: SessionContext, input: TTwoFactorVerifyRequest, client: Client): Promise<string> =>
      verifyTwoFactor(ctx, s, input, client),

    disable: (s: SessionContext, proof: TStepUp, client: Client): Promise<void> =>
      disableTwoFactor(ctx, s, proof, client),

    resetForOperator: (client: TxClient, userId: string): Promise<number> =>
      resetForOperator(client, userId),

    resetWithPhrase: (s: SessionContext, phrase: string, client: Client): Promise<void> =>
      resetWithPhrase(ctx, s, phrase, client),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

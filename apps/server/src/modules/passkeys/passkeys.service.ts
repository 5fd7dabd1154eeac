import type {
  TPasskey,
  TPasskeyAssertion,
  TPasskeyListResponse,
  TPasskeyRegisterRequest,
  TStepUp,
} from '@coffer/shared';
import type pg from 'pg';
import type { Client } from '../auth';
import type { SessionContext } from '../sessions';
import { acceptAssertion } from './accept-assertion';
import { assertionOptions, verifySignIn } from './passkey-sign-in';
import { passkeysRepository as repo } from './passkeys.repository';
import {
  adminsMustUsePasskey,
  PASSKEY_MSG,
  type PasskeysDeps,
  passkeysContext,
  present,
} from './passkeys-context';
import { registerPasskey, registrationOptions } from './register-passkey';
import { removePasskey } from './remove-passkey';
import { renamePasskey } from './rename-passkey';

/**
 * Passkeys composed: registering, signing in (and the assertion a step-up checks) and
 * removing are each their own file taking the shared context (`passkeys-context.ts`).
 */

export { PASSKEY_MSG } from './passkeys-context';

export function createPasskeysService(deps: PasskeysDeps) {
  const ctx = passkeysContext(deps);
  return {
    acceptAssertion: (
      client: pg.PoolClient,
      s: Pick<SessionContext, 'sessionId' | 'userId'>,
      assertion: TPasskeyAssertion,
    ) => acceptAssertion(ctx, client, s, assertion),

    /**
     * Whether an authenticator code may verify this session (decision 0014). Inside a
     * transaction (a step-up), the setting is read on its client.
     */
    async totpRefusal(
      s: Pick<SessionContext, 'isAdmin'>,
      client?: pg.PoolClient,
    ): Promise<string | null> {
      return (await adminsMustUsePasskey(ctx, s, client)) ? PASSKEY_MSG.adminsUsePasskey : null;
    },

    async list(s: SessionContext): Promise<TPasskeyListResponse> {
      return {
        passkeys: (await repo.listForUser(ctx.pool, s.userId)).map(present),
        passkeyOnly: await adminsMustUsePasskey(ctx, s),
      };
    },

    async signInStatus(s: SessionContext) {
      return {
        available: s.twoFactorEnabled && (await repo.countForUser(ctx.pool, s.userId)) > 0,
        passkeyOnly: await adminsMustUsePasskey(ctx, s),
      };
    },

    registrationOptions: (s: SessionContext) => registrationOptions(ctx, s),

    register: (
      s: SessionContext,
      input: TPasskeyRegisterRequest,
      client: Client,
    ): Promise<TPasskey> => registerPasskey(ctx, s, input, client),

    rename: (
      s: SessionContext,
      input: { id: string; name: string; stepUp: TStepUp },
      client: Client,
    ): Promise<TPasskey> => renamePasskey(ctx, s, input, client),

    assertionOptions: (s: SessionContext) => assertionOptions(ctx, s),

    verifySignIn: (s: SessionContext, assertion: TPasskeyAssertion, client: Client) =>
      verifySignIn(ctx, s, assertion, client),

    remove: (s: SessionContext, id: string, proof: TStepUp, client: Client): Promise<void> =>
      removePasskey(ctx, s, id, proof, client),
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;

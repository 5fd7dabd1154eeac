import type { Infra, Platform } from './app-services-platform';
import { createAccountSecurityService } from './modules/account-security';
import { createAuthService } from './modules/auth/auth.service';
import { createFirstRun } from './modules/first-run';
import { createPasskeysService } from './modules/passkeys';
import { createRecoveryPhraseService } from './modules/recovery-phrase/recovery-phrase.service';
import { createSecurityHold } from './modules/security-hold';
import { createStepUp } from './modules/step-up';
import { createTwoFactorService } from './modules/two-factor/two-factor.service';

/**
 * Accounts: the security hold, the recovery phrase, sign-in, step-up, the second factors,
 * the customer's account security and the dashboard's first-run checklist. Step-up, passkeys
 * and the hold ask each other, so they are made together here.
 */
export function createAccountServices(
  infra: Infra,
  {
    outbox,
    limiter,
    signInDevices,
    settings,
    sessions,
    audit,
    securityLog,
  }: Pick<
    Platform,
    'outbox' | 'limiter' | 'signInDevices' | 'settings' | 'sessions' | 'audit' | 'securityLog'
  >,
) {
  const { pool, secrets, config } = infra;
  const securityHold = createSecurityHold({
    pool,
    settings,
    outbox,
    audit,
    securityLog,
    // `stepUp` is made below (it needs passkeys, which need the hold).
    stepUp: { confirm: (...args) => stepUp.confirm(...args) },
    publicUrl: config.publicUrl,
  });
  const phrases = createRecoveryPhraseService({
    pool,
    secrets,
    limiter,
    securityLog,
  });
  const auth = createAuthService({
    pool,
    sessions,
    phrases,
    limiter,
    signInDevices,
    outbox,
    securityHold,
    securityLog,
    publicUrl: config.publicUrl,
  });
  // Step-up checks passkeys' answers, and passkeys asks for step-ups: `passkeys` is made below.
  const stepUp = createStepUp({
    secrets,
    limiter,
    acceptAssertion: (client, session, assertion) =>
      passkeys.acceptAssertion(client, session, assertion),
    totpRefusal: (session, client) => passkeys.totpRefusal(session, client),
    securityLog,
  });
  const twoFactor = createTwoFactorService({
    pool,
    sessions,
    phrases,
    limiter,
    secrets,
    outbox,
    securityHold,
    stepUp,
    securityLog,
    // Admins may be held to passkeys (decision 0014); `passkeys` is made below.
    totpRefusal: (session) => passkeys.totpRefusal(session),
    publicUrl: config.publicUrl,
  });
  const passkeys = createPasskeysService({
    pool,
    sessions,
    limiter,
    outbox,
    settings,
    securityHold,
    stepUp,
    securityLog,
    publicUrl: config.publicUrl,
  });
  const accountSecurity = createAccountSecurityService({
    pool,
    limiter,
    secrets,
    outbox,
    securityLog,
    stepUp,
    securityHold,
    publicUrl: config.publicUrl,
  });
  // The dashboard's first-run checklist reads the account's steps in one statement.
  const firstRun = createFirstRun({ pool });
  return { securityHold, phrases, auth, stepUp, twoFactor, passkeys, accountSecurity, firstRun };
}

export type AccountServices = ReturnType<typeof createAccountServices>;

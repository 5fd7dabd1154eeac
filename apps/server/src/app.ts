import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Services } from './app-services';
import type { Config } from './config';
import { REQUEST_ID_HEADER, requestContext, requestIdOf } from './lib/request-context';
import { accountSecurityRoutes } from './modules/account-security';
import { adminRoutes } from './modules/admin/admin.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { bankRoutes } from './modules/bank/bank.routes';
import { chatRoutes } from './modules/chat/chat.routes';
import { dashboardRoutes } from './modules/dashboard';
import { depositsRoutes } from './modules/deposits/deposits.routes';
import { firstRunRoutes } from './modules/first-run';
import { healthRoutes, registerRequestMetrics } from './modules/health';
import { historyRoutes } from './modules/history/history.routes';
import { kycRoutes } from './modules/kyc/kyc.routes';
import { moneyControlsRoutes } from './modules/money-controls/money-controls.routes';
import { passkeysRoutes } from './modules/passkeys';
import { pricesRoutes } from './modules/prices/prices.routes';
import { publicRoutes, siteFilesRoutes } from './modules/public';
import { registerRealtime } from './modules/realtime/realtime.routes';
import { recoveryPhraseRoutes } from './modules/recovery-phrase/recovery-phrase.routes';
import { securityHoldRoutes } from './modules/security-hold';
import { securityLogRoutes } from './modules/security-log';
import { stakingRoutes } from './modules/staking/staking.routes';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes';
import { walletsRoutes } from './modules/wallets/wallets.routes';
import { withdrawalsRoutes } from './modules/withdrawals/withdrawals.routes';
import './plugins/access';
import { registerCompression } from './plugins/compression';
import { registerCsrfGuard } from './plugins/csrf';
import { registerErrorHandler } from './plugins/error-handler';
import { registerGate } from './plugins/gate';
import { answerRouterError, registerInputGuard } from './plugins/input-guard';
import { registerSecurityHeaders, withSecurityHeaders } from './plugins/security-headers';
import { registerSession, sessionCookies } from './plugins/session';
import { registerWebApp } from './plugins/web-app';

export type BuildOptions = { logger?: boolean | object; serveWeb?: boolean };

/**
 * TRUST_PROXY for Fastify. A hop count is Express's rule (the nearest `hops` addresses are
 * proxies, the next one is the client): Fastify itself reads a number as "trust nothing",
 * because a client reaching the server directly could pose as the last proxy. Coffer listens
 * on loopback unless HOST says otherwise, so with a proxy on the same machine only the proxy
 * reaches it; otherwise the proxies' addresses are the setting to give (README).
 */
function trustProxyOption(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting;
  return (_address: string, hop: number) => hop < setting;
}

/** Builds the whole HTTP app on top of wired services; listening is the caller's business. */
export async function buildApp(
  services: Services,
  opts: BuildOptions = {},
): Promise<FastifyInstance> {
  const { config } = services;
  // Typed as Fastify's logger so the instance keeps Fastify's default logger type.
  const loggerInstance: FastifyBaseLogger | undefined =
    opts.logger === false ? undefined : services.log;
  const app = Fastify({
    loggerInstance,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    frameworkErrors: withSecurityHeaders(config.publicUrl, answerRouterError),
    // Request ids: the caller's X-Request-Id when it is a sane id (a proxy's or a tracer's,
    // so one id follows a request across instances), else a random one; never a counter,
    // which repeats on every instance and every restart.
    requestIdHeader: false,
    genReqId: (req) => requestIdOf(req.headers[REQUEST_ID_HEADER]),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The first hook: every answer, errors and 404s too, says which request it was, and the
  // rest of the request runs with its id in reach of every log line (lib/request-context).
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    requestContext.run(request.id, done);
  });
  registerRequestMetrics(app, services.metrics);

  registerErrorHandler(app);
  // Before every route: each route's answers are compressed unless it is listed as not.
  await registerCompression(app);
  await app.register(fastifyCookie);
  registerSecurityHeaders(app, config.publicUrl);
  registerCsrfGuard(app, config.publicUrl);
  registerSession(app, services.sessions);
  registerGate(app, {
    assertStaffClear: (userId) => services.securityHold.assertStaffClear(services.pool, userId),
  });
  registerInputGuard(app);

  const cookies = sessionCookies(config.publicUrl);
  await app.register(
    authRoutes(
      {
        auth: services.auth,
        sessions: services.sessions,
        signInDevices: services.signInDevices,
        accountSecurity: services.accountSecurity,
        publicUrl: config.publicUrl,
      },
      cookies,
    ),
  );
  await app.register(
    twoFactorRoutes({ twoFactor: services.twoFactor, sessions: services.sessions }, cookies),
  );
  await app.register(passkeysRoutes(services.passkeys, services.sessions, cookies));
  await app.register(accountSecurityRoutes(services.accountSecurity, cookies));
  await app.register(
    recoveryPhraseRoutes({
      phrases: services.phrases,
      auth: services.auth,
      sessions: services.sessions,
    }),
  );
  await app.register(publicRoutes(services.publicInfo));
  await app.register(siteFilesRoutes({ settings: services.settings, publicUrl: config.publicUrl }));
  await app.register(healthRoutes(services.health, services.metrics, config.metricsToken));
  await app.register(pricesRoutes(services.prices));
  await app.register(stakingRoutes(services.staking));
  await app.register(walletsRoutes(services.wallets));
  await app.register(dashboardRoutes(services.dashboard));
  await app.register(moneyControlsRoutes(services.moneyControls));
  await app.register(depositsRoutes(services.deposits));
  await app.register(firstRunRoutes(services.firstRun));
  await app.register(withdrawalsRoutes(services.withdrawals));
  await app.register(bankRoutes(services.bank));
  await app.register(historyRoutes(services.history));
  await app.register(securityHoldRoutes(services.securityHold));
  await app.register(securityLogRoutes(services.securityLog));
  await app.register(kycRoutes(services.kyc));
  await app.register(chatRoutes(services.chat));
  await app.register(
    adminRoutes({
      adminUsers: services.adminUsers,
      adminSettings: services.adminSettings,
      adminAudit: services.adminAudit,
      adminWallets: services.adminWallets,
      adminTransactions: services.adminTransactions,
      kyc: services.kyc,
      chat: services.chat,
      payouts: services.payouts,
      staffChanges: services.staffChanges,
      staff: services.staff,
      stepUp: services.stepUp,
      pool: services.pool,
      chainAdapters: services.chainAdapters,
      chains: config.chains,
    }),
  );
  await registerRealtime(app, services.realtime, config.publicUrl);
  await registerWebApp(app, opts.serveWeb === false ? null : config.webDistDir);
  return app;
}

import {
  ADMIN_RESET_PHRASE_MISSING,
  ALL_ASSET_IDS,
  ASSETS,
  centsToString,
  convertFiat,
  DEFAULT_STAKING_PROGRAM_START,
  MSG,
  mulPrice,
  parseAmount,
  sumUsd,
  type TAdminOverview,
  type TAdminRecoveryPhrases,
  type TAdminStaffList,
  type TAdminStakingTime,
  type TAdminTwoFactorState,
  type TAdminUserDirectory,
  type TAdminUserFigures,
  type TAdminUsersResponse,
  type TAnyAssetId,
  type TStepUp,
  usdCents,
} from '@coffer/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { Client } from '../../lib/client-of';
import type { AuditLog } from '../audit';
import { type ChainAdapter, chainProblems } from '../chains';
import type { LedgerCheck } from '../ledger';
import type { Outbox } from '../outbox';
import type { PriceBook, PriceService } from '../prices';
import type { Limit, RateLimiter } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import { endSessions } from '../sessions';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  type DirectoryRow,
  adminUsersRepository as directoryRepo,
  type FiguresRow,
  usersManagementRepository as repo,
  type SummaryRow,
  type UserRow,
} from './admin-users.repository';

/**
 * The acting admin and where the request came from, for the audit row; the session and
 * client whose fresh second factor confirms a factor change (step-up).
 */
export type Actor = { adminId: string; ip: string; session: StepUpSubject; client: Client };

const STAFF_RESET_SELF =
  'You cannot turn off your own second factor here: another admin must do it, with a reason.';
const STAFF_PHRASE_REFUSED =
  "Staff accounts are never restored with a recovery phrase: reset this admin's 2FA with a reason instead.";

/** A price feed older than this makes the health check say so. */
export const PRICE_FEED_MAX_AGE_SECONDS = 15 * 60;

const FIFTEEN_MINUTES = 15 * 60;
/** How old the reconciliation the dashboard shows may be: twice the job's interval. */
const LEDGER_CHECK_MAX_AGE_MS = 2 * 60_000;
/** How old the users screen's summary figures may be: its refresh interval. */
const SUMMARY_MAX_AGE_MS = 5_000;
/**
 * Wrong phrases typed by staff are counted per customer and per admin, apart from the
 * customer's own attempts: a support desk guessing cannot lock the customer out, and
 * cannot guess for long either.
 */
const resetLimits = (targetId: string, adminId: string): Limit[] => [
  { key: `admin-phrase:target:${targetId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
  { key: `admin-phrase:admin:${adminId}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
];

const isAssetId = (id: string): id is TAnyAssetId =>
  (ALL_ASSET_IDS as readonly string[]).includes(id);

const presentDirectoryUser = (r: DirectoryRow) => ({
  id: r.id,
  email: r.email,
  fullName: r.full_name,
  username: r.username,
});

/** The program start setting; the default when it is unset or unreadable. */
function programStartOf(value: string | undefined): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime())
    ? parsed
    : new Date(DEFAULT_STAKING_PROGRAM_START);
}

/**
 * staking display: no ETH → 'No ETH'; start is the later of the program start
 * and the registration; before it 'Staking starts soon'; after it the elapsed time (the
 * browser counts it from `since`).
 */
export function stakingTimeOf(
  ethMinor: bigint,
  registeredAt: Date,
  programStart: Date,
  now: Date,
): TAdminStakingTime {
  if (ethMinor <= 0n) return { state: 'no_eth' };
  const start = registeredAt > programStart ? registeredAt : programStart;
  if (now < start) return { state: 'starts_soon', startsAt: start.toISOString() };
  return { state: 'running', since: start.toISOString() };
}

type Deps = {
  pool: pg.Pool;
  settings: { all(): Promise<Map<string, string>> };
  prices: PriceService;
  outbox: Outbox;
  securityLog: SecurityLog;
  securityHold: SecurityHold;
  audit: AuditLog;
  limiter: RateLimiter;
  phrases: RecoveryPhraseService;
  stepUp: StepUp;
  ledgerCheck: LedgerCheck;
  chainAdapters: readonly ChainAdapter[];
  publicUrl: string;
  /** "Now" for the staking figures and the dashboard's check time. */
  clock: () => Date;
};

export function createAdminUsersService(s: Deps) {
  const { pool } = s;
  const now = s.clock;

  async function programStart(): Promise<Date> {
    return programStartOf((await s.settings.all()).get('staking_program_start'));
  }

  /** Portfolio (every wallet at the live price, stablecoins at 1) and ETH staking in USD. */
  function figuresOf(
    rows: FiguresRow[],
    book: PriceBook,
    start: Date,
    at: Date,
  ): TAdminUserFigures[] {
    return rows.map((r) => {
      // In cents until shown: a page values about a hundred wallets on every poll.
      let portfolioCents = 0n;
      let ethMinor = 0n;
      let stakingCents = 0n;
      for (const [assetId, balance] of r.wallets) {
        if (!isAssetId(assetId)) continue;
        const asset = ASSETS[assetId];
        const minor = parseAmount(balance, asset.decimals);
        const cents = usdCents(minor, asset.decimals, book.quotes[assetId].priceUsd);
        portfolioCents += cents;
        if (assetId === 'ETH') {
          ethMinor = minor;
          stakingCents = cents;
        }
      }
      return {
        id: r.id,
        portfolioUsd: centsToString(portfolioCents),
        stakingUsd: centsToString(stakingCents),
        stakingTime: stakingTimeOf(ethMinor, r.registration_date, start, at),
      };
    });
  }

  async function figuresFor(rows: FiguresRow[]): Promise<TAdminUserFigures[]> {
    return figuresOf(rows, s.prices.current(), await programStart(), now());
  }

  const presentUser = (r: UserRow, figures: TAdminUserFigures) => ({
    id: r.id,
    email: r.email,
    fullName: r.full_name,
    username: r.username,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    lastLogin: r.last_login ? r.last_login.toISOString() : null,
    twoFactorRequired: r.two_factor_required,
    twoFactorEnabled: r.two_factor_enabled,
    frozen: r.frozen,
    figures,
  });

  /** Turns 2FA off for a customer in the caller's transaction; the state before. */
  async function lockEnabled(client: import('pg').PoolClient, userId: string) {
    const row = await repo.lockCustomer(client, userId);
    if (!row) throw new AppError('NOT_FOUND', 'User not found');
    return row;
  }

  // The four summary figures count every customer (about 10 ms at 10,000, growing with
  // them), and the screen asks with every page and search. One count serves every request
  // for SUMMARY_MAX_AGE_MS, the screen's own refresh interval; Refresh Data asks afresh.
  let summaryCache: { at: number; value: Promise<SummaryRow> } | null = null;
  function summaryOf(fresh: boolean): Promise<SummaryRow> {
    const now = Date.now();
    if (fresh || !summaryCache || now - summaryCache.at > SUMMARY_MAX_AGE_MS) {
      const value = repo.summary(pool);
      summaryCache = { at: now, value };
      // A failed count is not kept: the next request tries again.
      value.catch(() => {
        if (summaryCache?.value === value) summaryCache = null;
      });
    }
    return summaryCache.value;
  }

  return {
    async directory(q: string, limit: number): Promise<TAdminUserDirectory> {
      const rows = await directoryRepo.directory(pool, q, limit);
      return { users: rows.map(presentDirectoryUser) };
    },

    async list(
      q: string,
      page: number,
      pageSize: number,
      fresh = false,
    ): Promise<TAdminUsersResponse> {
      const offset = (page - 1) * pageSize;
      const [summary, found] = await Promise.all([
        summaryOf(fresh),
        q === ''
          ? repo.page(pool, pageSize, offset).then((rows) => ({ rows, total: null }))
          : repo.search(pool, q, pageSize, offset),
      ]);
      const figures = await figuresFor(found.rows);
      return {
        summary: {
          totalUsers: summary.total,
          activeUsers: summary.active,
          newThisMonth: summary.new_month,
          emailVerified: summary.verified,
        },
        users: found.rows.map((r, i) => {
          const f = figures[i];
          if (!f) throw new Error('figures out of step with the page');
          return presentUser(r, f);
        }),
        total: found.total ?? summary.total,
        page,
        pageSize,
        priceSource: s.prices.current().source,
      };
    },

    /** The 5-second poll: wallet figures of the rows on screen. */
    async figures(ids: string[]): Promise<TAdminUserFigures[]> {
      if (ids.length === 0) return [];
      return figuresFor(await repo.figures(pool, ids));
    },

    /**
     * '2FA Required'. Waiving it weakens the account: it takes a reason (the
     * schema asks for one), kept in the audit row, and the customer is told by e-mail.
     */
    async setRequired(
      actor: Actor,
      userId: string,
      required: boolean,
      reason: string | null,
    ): Promise<TAdminTwoFactorState> {
      const state = await withTransaction(pool, async (client) => {
        const before = await lockEnabled(client, userId);
        await repo.setRequired(client, userId, required);
        if (!required && before.two_factor_required) {
          await s.outbox.mail(client, {
            to: before.email,
            subject: 'Two-factor authentication is no longer required on your Coffer account',
            text: `Coffer support no longer requires two-factor authentication on your account: signing in now needs only your password.\n\nWe recommend keeping two-factor authentication on. If you did not ask for this, contact support at once.\n\n${s.publicUrl}/dashboard/settings\n`,
          });
          // The customer's own security activity shows it too, with the change.
          await s.securityLog.record(client, { userId, kind: 'two-factor-waived-by-staff' });
        }
        await s.audit.record(client, {
          actorId: actor.adminId,
          action: 'user.2fa.require',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: { twoFactorRequired: before.two_factor_required },
          after: { twoFactorRequired: required },
          reason,
          ip: actor.ip,
        });
        return {
          id: userId,
          twoFactorRequired: required,
          twoFactorEnabled: before.two_factor_enabled,
        };
      });
      await s.outbox.deliver();
      return state;
    },

    /**
     * product.md S7: 2FA off with the customer's recovery phrase, checked against the keyed
     * hash; every session of the customer ends, the customer is told by e-mail.
     */
    async reset(
      actor: Actor,
      userId: string,
      phrase: string,
      stepUp: TStepUp,
    ): Promise<TAdminTwoFactorState> {
      const trimmed = phrase.trim();
      if (trimmed === '') throw new AppError('VALIDATION_FAILED', ADMIN_RESET_PHRASE_MISSING);
      const limits = resetLimits(userId, actor.adminId);
      const target = await repo.accountKind(pool, userId);
      if (!target) throw new AppError('NOT_FOUND', 'User not found');
      // Staff are never restored with a phrase: refused before any guess counts.
      if (target.is_admin) throw new AppError('FORBIDDEN', STAFF_PHRASE_REFUSED);
      const attempt = await s.limiter.consume(limits);
      if (!(await s.phrases.matches(userId, trimmed))) {
        throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
      }
      await attempt.release();
      const result = await withTransaction(pool, async (client) => {
        const before = await lockEnabled(client, userId);
        await s.stepUp.confirm(client, actor.session, stepUp, actor.client);
        await repo.removeTwoFactor(client, userId);
        const sessionsEnded = await endSessions(client, userId);
        // The phrase is burnt and a security hold starts (S10); its mail is queued with the
        // change, so the customer is told whenever it commits, even if the server stops.
        await s.phrases.burn(client, userId);
        await s.securityHold.start(client, {
          userId,
          email: before.email,
          event: 'admin-two-factor-reset',
          from: null,
        });
        await s.securityLog.record(client, { userId, kind: 'two-factor-reset-by-staff' });
        await s.audit.record(client, {
          actorId: actor.adminId,
          action: 'user.2fa.reset',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: { twoFactorEnabled: before.two_factor_enabled },
          after: { twoFactorEnabled: false, sessionsEnded },
          reason: 'Recovery phrase checked',
          ip: actor.ip,
        });
        return { required: before.two_factor_required };
      });
      await s.outbox.deliver();
      await s.limiter.clear([limits[0]?.key ?? '']);
      return { id: userId, twoFactorRequired: result.required, twoFactorEnabled: false };
    },

    /**
     * Turns a second factor off: a customer's or another admin's (staff cannot use the
     * phrase, so a locked-out admin is restored by another one). One path for both: a
     * reason (the schema asks for it), the acting admin's fresh second factor, then the
     * factor and passkeys go, every session ends, a security hold starts with its mail
     * (which gives the reason), and the audit row names who, whom and why, all in one
     * transaction. Never on oneself: that would be a second factor the holder can wave away.
     */
    async disable(
      actor: Actor,
      userId: string,
      reason: string,
      stepUp: TStepUp,
    ): Promise<TAdminTwoFactorState> {
      if (userId === actor.adminId) throw new AppError('FORBIDDEN', STAFF_RESET_SELF);
      const result = await withTransaction(pool, async (client) => {
        const before = await repo.lockAccount(client, userId);
        if (!before) throw new AppError('NOT_FOUND', 'User not found');
        const staff = before.is_admin;
        if (!before.two_factor_enabled)
          throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
        await s.stepUp.confirm(client, actor.session, stepUp, actor.client);
        await repo.removeTwoFactor(client, userId);
        // Every device is signed out: a session that passed the old factor must not outlive it.
        const sessionsEnded = await endSessions(client, userId);
        // Taking a factor away starts a security hold too, with its mail (S10). An admin's
        // factor is always required again, so for staff it is a reset, and its mail says so.
        await s.securityHold.start(client, {
          userId,
          email: before.email,
          event: staff ? 'staff-two-factor-reset' : 'admin-two-factor-disable',
          from: null,
          reason,
        });
        await s.securityLog.record(client, {
          userId,
          kind: staff ? 'two-factor-reset-by-staff' : 'two-factor-disabled-by-staff',
        });
        await s.audit.record(client, {
          actorId: actor.adminId,
          // The same action the operator's reset-admin-2fa writes, so one filter finds both.
          action: staff ? 'admin.2fa.reset' : 'user.2fa.disable',
          targetType: 'user',
          targetId: userId,
          targetUserId: userId,
          before: { twoFactorEnabled: true },
          after: { twoFactorEnabled: false, sessionsEnded },
          reason,
          ip: actor.ip,
        });
        return before;
      });
      await s.outbox.deliver();
      return { id: userId, twoFactorRequired: result.two_factor_required, twoFactorEnabled: false };
    },

    /** The Staff list of the users screen: every admin and the state of their second factor. */
    async staff(): Promise<TAdminStaffList> {
      const rows = await repo.staff(pool);
      return {
        staff: rows.map((r) => ({
          id: r.id,
          email: r.email,
          fullName: r.full_name,
          username: r.username,
          lastLogin: r.last_login ? r.last_login.toISOString() : null,
          twoFactorEnabled: r.two_factor_enabled,
          frozen: r.frozen,
        })),
      };
    },

    /** product.md S1: who has a phrase, of which type, since when; never the phrase. */
    async recoveryPhrases(page: number, pageSize: number): Promise<TAdminRecoveryPhrases> {
      const [summary, rows, without] = await Promise.all([
        repo.phraseSummary(pool),
        repo.phrases(pool, pageSize, (page - 1) * pageSize),
        repo.withoutPhrase(pool, 50),
      ]);
      return {
        summary: {
          total: summary.total,
          generated: summary.generated,
          custom: summary.custom,
          thisWeek: summary.week,
        },
        phrases: rows.map((r) => ({
          userId: r.id,
          email: r.email,
          fullName: r.full_name,
          username: r.username,
          type: r.is_generated ? 'generated' : 'custom',
          createdAt: r.created_at.toISOString(),
        })),
        page,
        pageSize,
        withoutPhrase: without.rows.map(presentDirectoryUser),
        withoutPhraseTotal: without.total,
      };
    },

    /** product.md M5: the dashboard's four tiles from real figures. */
    async overview(): Promise<TAdminOverview> {
      const checkedAt = now();
      const book = s.prices.current();
      const ageSeconds = book.updatedAt
        ? Math.max(0, Math.floor((checkedAt.getTime() - book.updatedAt.getTime()) / 1000))
        : null;
      const priceFeed = {
        updatedAt: book.updatedAt ? book.updatedAt.toISOString() : null,
        ageSeconds,
        source: book.source,
      };
      let database = true;
      try {
        await repo.ping(pool);
      } catch {
        database = false;
      }
      const problems: string[] = [];
      if (!database) {
        problems.push('Database unreachable');
        return {
          totalUsers: 0,
          volume30dUsd: '0.00',
          activeAddresses: 0,
          health: {
            status: 'degraded',
            problems,
            database,
            priceFeed,
            reconciliation: null,
            checkedAt: checkedAt.toISOString(),
          },
        };
      }
      const [totalUsers, activeAddresses, volumeRows, ledgerCheck] = await Promise.all([
        repo.countCustomers(pool),
        repo.countActiveAddresses(pool),
        repo.volume30d(pool),
        // The minute job's latest reconciliation; run now only if it is older than that.
        s.ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS),
      ]);
      // 30-day volume: each row's stored usd_amount (its value when it happened) where it
      // has one; rows without one are valued now, crypto at the live price, AUD at the
      // live AUD rate. Withdrawals count as volume too: it is money moved, not net flow.
      const parts: string[] = [];
      for (const v of volumeRows) {
        parts.push(v.usd);
        if (isAssetId(v.asset_id)) {
          const asset = ASSETS[v.asset_id];
          parts.push(
            mulPrice(
              parseAmount(v.crypto, asset.decimals),
              asset.decimals,
              book.quotes[v.asset_id].priceUsd,
            ),
          );
        } else if (v.asset_id === 'AUD') {
          parts.push(convertFiat(v.aud, book.audUsd.rate, 'aud-to-usd'));
        }
      }
      if (book.source !== 'live') problems.push('Price feed unavailable: using stored prices');
      else if (ageSeconds !== null && ageSeconds > PRICE_FEED_MAX_AGE_SECONDS)
        problems.push(`Price feed is ${Math.floor(ageSeconds / 60)} minutes old`);
      const mismatched = ledgerCheck.mismatchedWallets;
      if (mismatched > 0)
        problems.push(
          `Ledger reconciliation: ${mismatched} wallet${mismatched === 1 ? '' : 's'} out of balance`,
        );
      problems.push(...(await chainProblems(pool, s.chainAdapters)));
      return {
        totalUsers,
        volume30dUsd: sumUsd(parts),
        activeAddresses,
        health: {
          status: problems.length === 0 ? 'optimal' : 'degraded',
          problems,
          database,
          priceFeed,
          reconciliation: {
            clean: ledgerCheck.clean,
            mismatchedWallets: mismatched,
            checkedAt: ledgerCheck.checkedAt.toISOString(),
          },
          checkedAt: checkedAt.toISOString(),
        },
      };
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

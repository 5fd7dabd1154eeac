import type {
  TAdminRecoveryPhrases,
  TAdminUserDirectory,
  TAdminUserFigures,
  TAdminUsersResponse,
} from '@coffer/shared';
import {
  adminUsersRepository as directoryRepo,
  usersManagementRepository as repo,
  type UserRow,
} from './admin-users.repository';
import { type AdminUsersContext, presentDirectoryUser } from './admin-users-context';
import { figuresFor } from './user-figures';

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

export async function directoryOf(
  ctx: AdminUsersContext,
  q: string,
  limit: number,
): Promise<TAdminUserDirectory> {
  const rows = await directoryRepo.directory(ctx.pool, q, limit);
  return { users: rows.map(presentDirectoryUser) };
}

export async function listUsers(
  ctx: AdminUsersContext,
  q: string,
  page: number,
  pageSize: number,
  fresh = false,
): Promise<TAdminUsersResponse> {
  const offset = (page - 1) * pageSize;
  const [summary, found] = await Promise.all([
    ctx.summaryOf(fresh),
    q === ''
      ? repo.page(ctx.pool, pageSize, offset).then((rows) => ({ rows, total: null }))
      : repo.search(ctx.pool, q, pageSize, offset),
  ]);
  const figures = await figuresFor(ctx, found.rows);
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
    priceSource: ctx.prices.current().source,
  };
}

/** The 5-second poll: wallet figures of the rows on screen. */
export async function figuresOfUsers(
  ctx: AdminUsersContext,
  ids: string[],
): Promise<TAdminUserFigures[]> {
  if (ids.length === 0) return [];
  return figuresFor(ctx, await repo.figures(ctx.pool, ids));
}

/** product.md S1: who has a phrase, of which type, since when; never the phrase. */
export async function recoveryPhrasesPage(
  ctx: AdminUsersContext,
  page: number,
  pageSize: number,
): Promise<TAdminRecoveryPhrases> {
  const [summary, rows, without] = await Promise.all([
    repo.phraseSummary(ctx.pool),
    repo.phrases(ctx.pool, pageSize, (page - 1) * pageSize),
    repo.withoutPhrase(ctx.pool, 50),
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
}

import { convertFiat, mulPrice, sumUsd, type TAdminOverview } from '@coffer/shared';
import { chainProblems } from '../chains';
import { usersManagementRepository as repo } from './admin-users.repository';
import type { AdminUsersContext } from './admin-users-context';

/** A price feed older than this makes the health check say so. */
export const PRICE_FEED_MAX_AGE_SECONDS = 15 * 60;
/** How old the reconciliation the dashboard shows may be: twice the job's interval. */
const LEDGER_CHECK_MAX_AGE_MS = 2 * 60_000;

/** product.md M5: the dashboard's four tiles from real figures. */
export async function adminOverview(ctx: AdminUsersContext): Promise<TAdminOverview> {
  const { pool } = ctx;
  const checkedAt = ctx.clock();
  const book = ctx.prices.current();
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
    ctx.ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS),
  ]);
  // 30-day volume: each row's stored usd_amount (its value when it happened) where it
  // has one; rows without one are valued now, crypto at the live price, AUD at the
  // live AUD rate. Withdrawals count as volume too: it is money moved, not net flow.
  const parts: string[] = [];
  for (const v of volumeRows) {
    parts.push(v.usd);
    if (v.crypto) {
      const { asset, amount } = v.crypto;
      parts.push(mulPrice(amount, asset.decimals, book.quotes[asset.id].priceUsd));
    } else if (v.assetId === 'AUD') {
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
  problems.push(...(await chainProblems(pool, ctx.chainAdapters)));
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
}

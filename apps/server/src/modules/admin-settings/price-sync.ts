import { SETTINGS_MSG, type TPriceSyncResponse, type TPriceSyncStatus } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { adminSettingsRepository as repo } from './admin-settings.repository';
import { type Actor, type AdminSettingsContext, syncPricesOf } from './admin-settings-context';

/** PostgreSQL's deadlock code: the set-based wallet update may meet a ledger transaction. */
const DEADLOCK = '40P01';

function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === DEADLOCK;
}

/**
 * sync-wallet-prices: fetch the feed now; only with live prices are the
 * wallets revalued (USD stablecoins at 1), in one set-based statement, with the audit row
 * in the same transaction. A failed feed changes nothing and says so.
 */
export async function syncPrices(
  ctx: AdminSettingsContext,
  actor: Actor,
): Promise<TPriceSyncResponse> {
  const previous = ctx.prices.current();
  const book = await ctx.prices.refresh();
  if (book.source !== 'live') {
    const age = book.updatedAt
      ? `the prices of ${book.updatedAt.toISOString()} are still in use`
      : 'the catalogue fallback prices are still in use';
    return {
      success: false,
      message: SETTINGS_MSG.syncFailed,
      error: `The price feed did not answer with usable prices; wallet values were left unchanged and ${age}.`,
      prices: syncPricesOf(book),
      source: book.source,
      pricesAt: book.updatedAt?.toISOString() ?? null,
      walletsUpdated: 0,
    };
  }
  const assetPrices = Object.entries(book.quotes).map(([assetId, q]) => ({
    assetId,
    priceUsd: q.priceUsd,
  }));
  const pricesNow = syncPricesOf(book);
  let walletsUpdated = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      walletsUpdated = await withTransaction(ctx.pool, async (client) => {
        const n = await repo.revalueWallets(client, assetPrices);
        await ctx.audit.record(client, {
          actorId: actor.userId,
          action: 'prices.sync',
          targetType: 'user_wallets',
          targetId: 'all',
          before: { prices: syncPricesOf(previous), source: previous.source },
          after: {
            prices: pricesNow,
            source: book.source,
            pricesAt: book.updatedAt?.toISOString() ?? null,
            walletsUpdated: n,
          },
          reason: null,
          ip: actor.ip,
        });
        return n;
      });
      break;
    } catch (err) {
      if (!isDeadlock(err) || attempt >= 3) throw err;
      ctx.log.warn({ attempt }, 'wallet revaluation met a deadlock; trying again');
    }
  }
  return {
    success: true,
    message: SETTINGS_MSG.syncDone,
    error: null,
    prices: pricesNow,
    source: book.source,
    pricesAt: book.updatedAt?.toISOString() ?? null,
    walletsUpdated,
  };
}

export async function syncStatus(ctx: AdminSettingsContext): Promise<TPriceSyncStatus> {
  const book = ctx.prices.current();
  return {
    lastSync: await repo.lastSync(ctx.pool),
    current: {
      prices: syncPricesOf(book),
      source: book.source,
      pricesAt: book.updatedAt?.toISOString() ?? null,
    },
  };
}

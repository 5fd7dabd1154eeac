import {
  SETTINGS_MSG,
  settingValueError,
  type TAppSetting,
  type TPriceSyncResponse,
  type TPriceSyncStatus,
  type TSyncPrices,
} from '@coffer/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { AuditLog } from '../audit';
import type { PriceBook } from '../prices';
import { SETTING_DEFAULTS, type SettingRow, settingsWrites } from '../settings';
import { adminSettingsRepository as repo } from './admin-settings.repository';

/** Who is acting, for the audit row. */
export type Actor = { userId: string; ip: string };

type Deps = {
  pool: pg.Pool;
  audit: AuditLog;
  settings: { invalidate(): void };
  prices: { current(): PriceBook; refresh(): Promise<PriceBook> };
  log: Logger;
};

const present = (r: SettingRow): TAppSetting => ({
  key: r.key,
  value: r.value,
  type: r.type,
  description: r.description,
  updatedAt: r.updatedAt.toISOString(),
});

const syncPricesOf = (book: PriceBook): TSyncPrices => ({
  BTC: book.quotes.BTC.priceUsd,
  ETH: book.quotes.ETH.priceUsd,
  USDT: book.quotes['USDT-ERC20'].priceUsd,
});

/** PostgreSQL's deadlock code: the set-based wallet update may meet a ledger transaction. */
const DEADLOCK = '40P01';

function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === DEADLOCK;
}

/**
 * App settings and the wallet price sync (admin.md §2.6, §7; DEVIATIONS M2, M8, M10).
 *
 * A save is ONE audit row holding the diff of every key it changed (`before` and `after`
 * keyed by setting): one admin action, one row, like every other admin action, and the
 * row says exactly which values moved together. The keys are the row's target id, so a
 * search for a key finds every save that touched it.
 */
export function createAdminSettingsService({ pool, audit, settings, prices, log }: Deps) {
  async function list(): Promise<TAppSetting[]> {
    return (await settingsWrites.list(pool)).map(present);
  }

  /**
   * Writes the changed values in one transaction with the announcement that drops every
   * instance's cache, and the audit row last. Bad input changes nothing.
   *
   * The staking rate: each staker's row keeps the rate accruing since its last checkpoint,
   * and a new rate applies only from the first checkpoint at or after the setting's
   * `updated_at` (see modules/staking). Writing `updated_at = now()` with the new value is
   * what keeps accrual already earned at the old rate: nothing here touches `user_staking`.
   */
  async function save(
    actor: Actor,
    wanted: Array<{ key: string; value: string }>,
    action: 'settings.update' | 'settings.reset',
  ): Promise<{ settings: TAppSetting[]; changed: string[] }> {
    const saved = await withTransaction(pool, async (client) => {
      if (action === 'settings.reset') await settingsWrites.insertMissing(client, SETTING_DEFAULTS);
      const rows = await settingsWrites.lock(
        client,
        wanted.map((w) => w.key),
      );
      const byKey = new Map(rows.map((r) => [r.key, r]));
      const errors: string[] = [];
      for (const { key, value } of wanted) {
        const row = byKey.get(key);
        if (!row) {
          errors.push(`There is no setting called ${key}.`);
          continue;
        }
        const error = settingValueError(key, row.type, value);
        if (error) errors.push(error);
      }
      if (errors.length > 0) throw new AppError('VALIDATION_FAILED', errors.join(' '));

      const changes = wanted
        .filter((w) => byKey.get(w.key)?.value !== w.value)
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      if (changes.length > 0) {
        await settingsWrites.applyChanges(client, changes);
        const before: Record<string, string> = {};
        const after: Record<string, string> = {};
        for (const c of changes) {
          before[c.key] = byKey.get(c.key)?.value ?? '';
          after[c.key] = c.value;
        }
        await audit.record(client, {
          actorId: actor.userId,
          action,
          targetType: 'app_settings',
          targetId: changes.map((c) => c.key).join(','),
          before,
          after,
          reason: null,
          ip: actor.ip,
        });
      }
      return {
        settings: (await settingsWrites.list(client)).map(present),
        changed: changes.map((c) => c.key),
      };
    });
    settings.invalidate();
    return saved;
  }

  async function update(actor: Actor, values: Record<string, string>) {
    return save(
      actor,
      Object.entries(values).map(([key, value]) => ({ key, value })),
      'settings.update',
    );
  }

  /** Every known setting back to its default; keys without a default are left alone. */
  async function reset(actor: Actor) {
    return save(
      actor,
      SETTING_DEFAULTS.map((d) => ({ key: d.key, value: d.value })),
      'settings.reset',
    );
  }

  /**
   * admin.md §7 sync-wallet-prices: fetch the feed now; only with live prices are the
   * wallets revalued (USD stablecoins at 1), in one set-based statement, with the audit row
   * in the same transaction. A failed feed changes nothing and says so.
   */
  async function syncPrices(actor: Actor): Promise<TPriceSyncResponse> {
    const previous = prices.current();
    const book = await prices.refresh();
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
        walletsUpdated = await withTransaction(pool, async (client) => {
          const n = await repo.revalueWallets(client, assetPrices);
          await audit.record(client, {
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
        log.warn({ attempt }, 'wallet revaluation met a deadlock; trying again');
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

  async function syncStatus(): Promise<TPriceSyncStatus> {
    const book = prices.current();
    return {
      lastSync: await repo.lastSync(pool),
      current: {
        prices: syncPricesOf(book),
        source: book.source,
        pricesAt: book.updatedAt?.toISOString() ?? null,
      },
    };
  }

  return { list, update, reset, syncPrices, syncStatus };
}

export type AdminSettingsService = ReturnType<typeof createAdminSettingsService>;

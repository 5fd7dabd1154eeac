import {
  needsApproval,
  SETTINGS_MSG,
  settingValueError,
  type TAppSetting,
  type TAppSettingsResponse,
  type TPendingSettingChange,
  type TPriceSyncResponse,
  type TPriceSyncStatus,
  type TStepUp,
  type TSyncPrices,
  type TUpdateSettingsResponse,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { PriceBook } from '../prices';
import { SETTING_DEFAULTS, type SettingRow, settingsWrites } from '../settings';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  adminSettingsRepository as repo,
  type SettingChangeRow,
} from './admin-settings.repository';

/** Who is acting, for the audit row. */
export type Actor = { userId: string; ip: string };

/** An admin changing settings: their session (for the step-up), where from, and the proof. */
export type SettingsRequest = { session: StepUpSubject; who: Client; stepUp: TStepUp | undefined };

type Deps = {
  pool: pg.Pool;
  audit: AuditLog;
  stepUp: Pick<StepUp, 'confirm'>;
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

const presentChange = (c: SettingChangeRow): TPendingSettingChange => ({
  id: c.id,
  key: c.key,
  value: c.value,
  proposedBy: { id: c.proposedBy, email: c.proposerEmail },
  proposedAt: c.proposedAt.toISOString(),
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
 * App settings and the wallet price sync.
 *
 * A save is ONE audit row holding the diff of every key it changed (`before` and `after`
 * keyed by setting): one admin action, one row, like every other admin action, and the
 * row says exactly which values moved together. The keys are the row's target id, so a
 * search for a key finds every save that touched it.
 */
export function createAdminSettingsService({ pool, audit, stepUp, settings, prices, log }: Deps) {
  async function list(): Promise<TAppSettingsResponse> {
    return {
      settings: (await settingsWrites.list(pool)).map(present),
      pending: (await repo.pendingChanges(pool)).map(presentChange),
    };
  }

  const actorOf = (r: SettingsRequest): Actor => ({ userId: r.session.userId, ip: r.who.ip });

  /**
   * Applies at once what one admin may change alone and proposes the rest (four eyes:
   * `needsApproval`), in one transaction: the applied values with the announcement that
   * drops every instance's cache and one audit row of their diff; each proposal with its
   * own audit row. Bad input, or a missing or wrong second factor, changes nothing: the
   * step-up is checked after every other check, so a refused save never costs a code.
   *
   * The staking rate: each staker's row keeps the rate accruing since its last checkpoint,
   * and a new rate applies only from the first checkpoint at or after the setting's
   * `updated_at` (see modules/staking). Writing `updated_at = now()` with the new value is
   * what keeps accrual already earned at the old rate: nothing here touches `user_staking`.
   */
  async function save(
    request: SettingsRequest,
    wanted: Array<{ key: string; value: string }>,
    action: 'settings.update' | 'settings.reset',
  ): Promise<TUpdateSettingsResponse> {
    const actor = actorOf(request);
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
      // The second factor confirms a change: a save that changes nothing spends none.
      if (changes.length > 0) {
        await stepUp.confirm(client, request.session, request.stepUp, request.who);
      }
      const now = changes.filter((c) => !needsApproval(c.key, c.value));
      if (now.length > 0) {
        await settingsWrites.applyChanges(client, now);
        const before: Record<string, string> = {};
        const after: Record<string, string> = {};
        for (const c of now) {
          before[c.key] = byKey.get(c.key)?.value ?? '';
          after[c.key] = c.value;
        }
        await audit.record(client, {
          actorId: actor.userId,
          action,
          targetType: 'app_settings',
          targetId: now.map((c) => c.key).join(','),
          before,
          after,
          reason: null,
          ip: actor.ip,
        });
      }
      const proposed: TPendingSettingChange[] = [];
      for (const c of changes.filter((c) => needsApproval(c.key, c.value))) {
        proposed.push(presentChange(await propose(client, actor, c, byKey.get(c.key)?.value)));
      }
      return {
        settings: (await settingsWrites.list(client)).map(present),
        changed: now.map((c) => c.key),
        pending: proposed,
      };
    });
    settings.invalidate();
    return saved;
  }

  /**
   * One proposal, with its own audit row (each is approved or rejected on its own). A
   * pending proposal for the same setting is replaced: the newest intent is the one a
   * second admin is asked about, and the replaced one's id is in the row.
   */
  async function propose(
    client: TxClient,
    actor: Actor,
    change: { key: string; value: string },
    current: string | undefined,
  ): Promise<SettingChangeRow> {
    const replaced = await repo.replacePending(client, change.key, actor.userId);
    const row = await repo.propose(client, change.key, change.value, actor.userId);
    await audit.record(client, {
      actorId: actor.userId,
      action: 'settings.propose',
      targetType: 'app_settings',
      targetId: change.key,
      before: { [change.key]: current ?? '' },
      after: {
        [change.key]: change.value,
        change: row.id,
        ...(replaced ? { replaces: replaced } : {}),
      },
      reason: null,
      ip: actor.ip,
    });
    return row;
  }

  async function update(
    request: SettingsRequest,
    values: Record<string, string>,
  ): Promise<TUpdateSettingsResponse> {
    return save(
      request,
      Object.entries(values).map(([key, value]) => ({ key, value })),
      'settings.update',
    );
  }

  /**
   * Every known setting back to its default; keys without a default are left alone. A
   * reset is a save like any other: the risk settings among the defaults are proposed.
   */
  async function reset(request: SettingsRequest): Promise<TUpdateSettingsResponse> {
    return save(
      request,
      SETTING_DEFAULTS.map((d) => ({ key: d.key, value: d.value })),
      'settings.reset',
    );
  }

  /**
   * Approves or rejects a proposed change, under the setting's row lock and then the
   * change's (the order a proposal takes them in, so the two never wait on each other):
   * of parallel decisions one wins and the others are told it is decided. Only another
   * admin approves; the proposer may withdraw (reject) their own. An approved value is
   * checked again against today's rules, then applied and announced in the same commit.
   */
  async function decide(
    request: SettingsRequest,
    id: string,
    decision: 'approve' | 'reject',
  ): Promise<TAppSettingsResponse> {
    const actor = actorOf(request);
    await withTransaction(pool, async (client) => {
      const found = await repo.findChange(client, id);
      if (!found) throw new AppError('NOT_FOUND', SETTINGS_MSG.changeNotFound);
      const [row] = await settingsWrites.lock(client, [found.key]);
      const change = await repo.lockChange(client, id);
      if (!row || !change) throw new AppError('NOT_FOUND', SETTINGS_MSG.changeNotFound);
      if (change.status !== 'pending') throw new AppError('CONFLICT', SETTINGS_MSG.changeDecided);
      if (decision === 'approve') {
        if (change.proposedBy === actor.userId) {
          throw new AppError('FORBIDDEN', SETTINGS_MSG.ownProposal);
        }
        const error = settingValueError(change.key, row.type, change.value);
        if (error) throw new AppError('VALIDATION_FAILED', error);
      }
      await stepUp.confirm(client, request.session, request.stepUp, request.who);

      const proposal = {
        [change.key]: change.value,
        change: change.id,
        proposedBy: change.proposedBy,
      };
      if (decision === 'approve') {
        await settingsWrites.applyChanges(client, [{ key: change.key, value: change.value }]);
        await repo.decide(client, change.id, 'approved', actor.userId);
        await audit.record(client, {
          actorId: actor.userId,
          action: 'settings.approve',
          targetType: 'app_settings',
          targetId: change.key,
          before: { [change.key]: row.value },
          after: proposal,
          reason: null,
          ip: actor.ip,
        });
      } else {
        await repo.decide(client, change.id, 'rejected', actor.userId);
        await audit.record(client, {
          actorId: actor.userId,
          action: 'settings.reject',
          targetType: 'app_settings',
          targetId: change.key,
          before: proposal,
          after: null,
          reason: null,
          ip: actor.ip,
        });
      }
    });
    settings.invalidate();
    return list();
  }

  /**
   * sync-wallet-prices: fetch the feed now; only with live prices are the
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

  return {
    list,
    update,
    reset,
    approve: (request: SettingsRequest, id: string) => decide(request, id, 'approve'),
    reject: (request: SettingsRequest, id: string) => decide(request, id, 'reject'),
    syncPrices,
    syncStatus,
  };
}

export type AdminSettingsService = ReturnType<typeof createAdminSettingsService>;

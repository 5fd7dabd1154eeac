import {
  needsApproval,
  settingValueError,
  type TPendingSettingChange,
  type TUpdateSettingsResponse,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { SETTING_DEFAULTS, settingsWrites } from '../settings';
import {
  adminSettingsRepository as repo,
  type SettingChangeRow,
} from './admin-settings.repository';
import {
  type Actor,
  type AdminSettingsContext,
  actorOf,
  present,
  presentChange,
  type SettingsRequest,
} from './admin-settings-context';

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
  ctx: AdminSettingsContext,
  request: SettingsRequest,
  wanted: Array<{ key: string; value: string }>,
  action: 'settings.update' | 'settings.reset',
): Promise<TUpdateSettingsResponse> {
  const actor = actorOf(request);
  const saved = await withTransaction(ctx.pool, async (client) => {
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
      await ctx.stepUp.confirm(client, request.session, request.stepUp, request.who);
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
      await ctx.audit.record(client, {
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
      proposed.push(presentChange(await propose(ctx, client, actor, c, byKey.get(c.key)?.value)));
    }
    return {
      settings: (await settingsWrites.list(client)).map(present),
      changed: now.map((c) => c.key),
      pending: proposed,
    };
  });
  ctx.settings.invalidate();
  return saved;
}

/**
 * One proposal, with its own audit row (each is approved or rejected on its own). A
 * pending proposal for the same setting is replaced: the newest intent is the one a
 * second admin is asked about, and the replaced one's id is in the row.
 */
async function propose(
  ctx: AdminSettingsContext,
  client: TxClient,
  actor: Actor,
  change: { key: string; value: string },
  current: string | undefined,
): Promise<SettingChangeRow> {
  const replaced = await repo.replacePending(client, change.key, actor.userId);
  const row = await repo.propose(client, change.key, change.value, actor.userId);
  await ctx.audit.record(client, {
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

export async function updateSettings(
  ctx: AdminSettingsContext,
  request: SettingsRequest,
  values: Record<string, string>,
): Promise<TUpdateSettingsResponse> {
  return save(
    ctx,
    request,
    Object.entries(values).map(([key, value]) => ({ key, value })),
    'settings.update',
  );
}

/**
 * Every known setting back to its default; keys without a default are left alone. A
 * reset is a save like any other: the risk settings among the defaults are proposed.
 */
export async function resetSettings(
  ctx: AdminSettingsContext,
  request: SettingsRequest,
): Promise<TUpdateSettingsResponse> {
  return save(
    ctx,
    request,
    SETTING_DEFAULTS.map((d) => ({ key: d.key, value: d.value })),
    'settings.reset',
  );
}

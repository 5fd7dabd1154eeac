import {
  needsApproval,
  settingValueError,
  type TPendingSettingChange,
  type TStepUp,
  type TUpdateSettingsResponse,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { SETTING_DEFAULTS, settingsWrites } from '../settings';
import type { StaffActor } from '../staff-changes';
import {
  type AdminSettingsContext,
  present,
  presentSettingChange,
  SETTING_CHANGE,
} from './admin-settings-context';

/**
 * Applies at once only what one staff member may change alone, pulling a money stop, and
 * proposes every other change (decision 0036), in one transaction: the applied values with
 * the announcement that drops every instance's cache and one audit row of their diff; each
 * proposal with its own audit row. Bad input, or a missing or wrong second factor, changes
 * nothing: the step-up is checked after every other check, so a refused save never costs a
 * code.
 *
 * The staking rate: each staker's row keeps the rate accruing since its last checkpoint,
 * and a new rate applies only from the first checkpoint at or after the setting's
 * `updated_at` (see modules/staking). Writing `updated_at = now()` with the new value is
 * what keeps accrual already earned at the old rate: nothing here touches `user_staking`.
 */
async function save(
  ctx: AdminSettingsContext,
  actor: StaffActor,
  proof: TStepUp | undefined,
  wanted: Array<{ key: string; value: string }>,
  action: 'settings.update' | 'settings.reset',
): Promise<TUpdateSettingsResponse> {
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
      const pending = await ctx.changes.proposeIn(client, actor, SETTING_CHANGE, c);
      proposed.push(presentSettingChange(pending));
    }
    // The second factor confirms a change: a save that changes nothing spends none.
    if (changes.length > 0) await ctx.stepUp.confirm(client, actor.session, proof, actor.client);
    return {
      settings: (await settingsWrites.list(client)).map(present),
      changed: now.map((c) => c.key),
      pending: proposed,
    };
  });
  ctx.settings.invalidate();
  return saved;
}

export async function updateSettings(
  ctx: AdminSettingsContext,
  actor: StaffActor,
  proof: TStepUp | undefined,
  values: Record<string, string>,
): Promise<TUpdateSettingsResponse> {
  return save(
    ctx,
    actor,
    proof,
    Object.entries(values).map(([key, value]) => ({ key, value })),
    'settings.update',
  );
}

/**
 * Every known setting back to its default; keys without a default are left alone. A
 * reset is a save like any other: every default but a money stop is proposed.
 */
export async function resetSettings(
  ctx: AdminSettingsContext,
  actor: StaffActor,
  proof: TStepUp | undefined,
): Promise<TUpdateSettingsResponse> {
  return save(
    ctx,
    actor,
    proof,
    SETTING_DEFAULTS.map((d) => ({ key: d.key, value: d.value })),
    'settings.reset',
  );
}

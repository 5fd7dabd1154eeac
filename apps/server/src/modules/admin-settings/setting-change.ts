import { SETTINGS_MSG, settingValueError } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { settingsWrites } from '../settings';
import type { ChangeKind } from '../staff-changes';
import { type AdminSettingsContext, SETTING_CHANGE } from './admin-settings-context';

/** A setting's proposed value, as the change stores it. */
export type SettingPayload = { key: string; value: string };

/**
 * A setting's value checked against today's rules, under the setting's row lock: its
 * type and range, and that turning `admins_require_passkey` on locks no active staff
 * member out (every one of them must hold a passkey first).
 */
async function checked(ctx: AdminSettingsContext, client: TxClient, p: SettingPayload) {
  const [row] = await settingsWrites.lock(client, [p.key]);
  if (!row) throw new AppError('VALIDATION_FAILED', `There is no setting called ${p.key}.`);
  const error = settingValueError(p.key, row.type, p.value);
  if (error) throw new AppError('VALIDATION_FAILED', error);
  if (p.key === 'admins_require_passkey' && p.value === 'true') {
    const without = await ctx.staffWithoutPasskey(client);
    if (without.length > 0) {
      throw new AppError('CONFLICT', SETTINGS_MSG.staffWithoutPasskey(without));
    }
  }
  return row;
}

/**
 * A setting's change, two people (decision 0036): proposed by one staff member, applied
 * when another approves it, checked again then. A newer proposal for the same setting
 * replaces a pending one. Only pulling a money stop skips this (save-settings.ts).
 */
export function settingChangeKind(ctx: AdminSettingsContext): ChangeKind<SettingPayload> {
  return {
    kind: SETTING_CHANGE,
    auditAction: 'settings.approve',
    async describe(client, payload) {
      const row = await checked(ctx, client, payload);
      return {
        summary: `Set ${payload.key} to ${payload.value === '' ? '(empty)' : payload.value}`,
        before: { [payload.key]: row.value },
        after: { [payload.key]: payload.value },
        subjectUserId: null,
        targetKey: payload.key,
        payload: { key: payload.key, value: payload.value },
      };
    },
    async apply(client, payload) {
      await checked(ctx, client, payload);
      await settingsWrites.applyChanges(client, [payload]);
      // This instance's cache too; the others drop theirs on the announcement.
      ctx.settings.invalidate();
      return null;
    },
  };
}

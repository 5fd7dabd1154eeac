import {
  needsApproval,
  SETTINGS_MSG,
  settingLabel,
  settingValueError,
  type TAppSetting,
  type TUpdateSettingsResponse,
} from '@coffer/shared';
import { toast } from 'sonner';

/** The values the admin has typed or switched, by setting key; the others are as stored. */
export type TSettingsDraft = Record<string, string>;

/** The draft's values that differ from the stored ones, as [key, value] pairs. */
export function changedSettings(
  draft: TSettingsDraft,
  rows: readonly TAppSetting[],
): [string, string][] {
  const stored = new Map(rows.map((s) => [s.key, s.value]));
  return Object.entries(draft).filter(([key, value]) => stored.get(key) !== value);
}

/** Why each changed value cannot be stored, by key: the server's own check, in its words. */
export function settingErrors(
  changed: readonly [string, string][],
  rows: readonly TAppSetting[],
): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const [key, value] of changed) {
    const row = rows.find((s) => s.key === key);
    const error = row ? settingValueError(key, row.type, value) : null;
    if (error) errors[key] = error;
  }
  return errors;
}

/** What saving the changes will do, for the step-up dialog: at once, or after an approval. */
export function saveDescription(changed: readonly [string, string][]): string {
  const needApproval = changed.filter(([key, value]) => needsApproval(key, value));
  if (needApproval.length === 0) return 'The change applies at once, for every customer.';
  return `${needApproval.map(([key]) => settingLabel(key)).join(', ')} will wait for another admin’s approval${
    needApproval.length < changed.length ? '; the other changes apply at once' : ''
  }.`;
}

/** What the server did: applied now, or waiting for another admin (four eyes). */
export function tellSettingsResult(result: TUpdateSettingsResponse, done: string): void {
  if (result.pending.length === 0) toast.success(done);
  else if (result.changed.length > 0) {
    // Only what really applied is called saved.
    toast.success(done, {
      description: `Applied now: ${result.changed.map((key) => settingLabel(key)).join(', ')}.`,
    });
  }
  if (result.pending.length > 0) {
    toast.info('Awaiting approval', {
      description: `${result.pending.map((p) => settingLabel(p.key)).join(', ')}: ${SETTINGS_MSG.proposed}`,
    });
  }
}

import { SETTINGS_MSG, settingValueError, type TAppSettingsResponse } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { settingsWrites } from '../settings';
import { adminSettingsRepository as repo } from './admin-settings.repository';
import {
  type AdminSettingsContext,
  actorOf,
  listSettings,
  type SettingsRequest,
} from './admin-settings-context';

/**
 * Approves or rejects a proposed change, under the setting's row lock and then the
 * change's (the order a proposal takes them in, so the two never wait on each other):
 * of parallel decisions one wins and the others are told it is decided. Only another
 * admin approves; the proposer may withdraw (reject) their own. An approved value is
 * checked again against today's rules, then applied and announced in the same commit.
 */
export async function decideChange(
  ctx: AdminSettingsContext,
  request: SettingsRequest,
  id: string,
  decision: 'approve' | 'reject',
): Promise<TAppSettingsResponse> {
  const actor = actorOf(request);
  await withTransaction(ctx.pool, async (client) => {
    const found = await repo.findChange(client, id);
    if (!found) throw new AppError('NOT_FOUND', SETTINGS_MSG.changeNotFound);
    const [row] = await settingsWrites.lock(client, [found.setting_key]);
    const change = await repo.lockChange(client, id);
    if (!row || !change) throw new AppError('NOT_FOUND', SETTINGS_MSG.changeNotFound);
    if (change.status !== 'pending') throw new AppError('CONFLICT', SETTINGS_MSG.changeDecided);
    if (decision === 'approve') {
      if (change.proposed_by === actor.userId) {
        throw new AppError('FORBIDDEN', SETTINGS_MSG.ownProposal);
      }
      const error = settingValueError(change.setting_key, row.type, change.value);
      if (error) throw new AppError('VALIDATION_FAILED', error);
    }
    await ctx.stepUp.confirm(client, request.session, request.stepUp, request.who);

    const proposal = {
      [change.setting_key]: change.value,
      change: change.id,
      proposedBy: change.proposed_by,
    };
    if (decision === 'approve') {
      await settingsWrites.applyChanges(client, [{ key: change.setting_key, value: change.value }]);
      await repo.decide(client, change.id, 'approved', actor.userId);
      await ctx.audit.record(client, {
        actorId: actor.userId,
        action: 'settings.approve',
        targetType: 'app_settings',
        targetId: change.setting_key,
        before: { [change.setting_key]: row.value },
        after: proposal,
        reason: null,
        ip: actor.ip,
      });
    } else {
      await repo.decide(client, change.id, 'rejected', actor.userId);
      await ctx.audit.record(client, {
        actorId: actor.userId,
        action: 'settings.reject',
        targetType: 'app_settings',
        targetId: change.setting_key,
        before: proposal,
        after: null,
        reason: null,
        ip: actor.ip,
      });
    }
  });
  ctx.settings.invalidate();
  return listSettings(ctx);
}

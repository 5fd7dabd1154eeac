import type { TStepUp } from '@coffer/shared';
import type { StaffActor } from '../staff-changes';
import { type Actor, type AdminSettingsContext, listSettings } from './admin-settings-context';
import { syncPrices, syncStatus } from './price-sync';
import { resetSettings, updateSettings } from './save-settings';
import { settingChangeKind } from './setting-change';

/**
 * App settings and the wallet price sync, composed: saving (update and reset) and the
 * price sync are each their own file taking the shared context
 * (`admin-settings-context.ts`); a setting's change is a two-person change whose kind
 * (`setting-change.ts`) is registered with the staff changes here, once.
 *
 * A save is ONE audit row holding the diff of every key it changed (`before` and `after`
 * keyed by setting): one admin action, one row, like every other admin action, and the
 * row says exactly which values moved together. The keys are the row's target id, so a
 * search for a key finds every save that touched it.
 */

export type { Actor } from './admin-settings-context';

export function createAdminSettingsService(ctx: AdminSettingsContext) {
  ctx.changes.register(settingChangeKind(ctx));
  return {
    list: () => listSettings(ctx),
    update: (actor: StaffActor, proof: TStepUp | undefined, values: Record<string, string>) =>
      updateSettings(ctx, actor, proof, values),
    reset: (actor: StaffActor, proof: TStepUp | undefined) => resetSettings(ctx, actor, proof),
    /** The settings screen's own approve and reject: the staff changes' decisions. */
    approve: async (actor: StaffActor, proof: TStepUp | undefined, id: string) => {
      await ctx.changes.approve(actor, id, proof);
      return listSettings(ctx);
    },
    reject: async (actor: StaffActor, proof: TStepUp | undefined, id: string) => {
      await ctx.changes.reject(actor, id, proof);
      return listSettings(ctx);
    },
    syncPrices: (actor: Actor) => syncPrices(ctx, actor),
    syncStatus: () => syncStatus(ctx),
  };
}

export type AdminSettingsService = ReturnType<typeof createAdminSettingsService>;

import {
  type Actor,
  type AdminSettingsContext,
  listSettings,
  type SettingsRequest,
} from './admin-settings-context';
import { decideChange } from './decide-change';
import { syncPrices, syncStatus } from './price-sync';
import { resetSettings, updateSettings } from './save-settings';

/**
 * App settings and the wallet price sync, composed: saving (update and reset), deciding a
 * proposed change and the price sync are each their own file taking the shared context
 * (`admin-settings-context.ts`).
 *
 * A save is ONE audit row holding the diff of every key it changed (`before` and `after`
 * keyed by setting): one admin action, one row, like every other admin action, and the
 * row says exactly which values moved together. The keys are the row's target id, so a
 * search for a key finds every save that touched it.
 */

export type { Actor, SettingsRequest } from './admin-settings-context';

export function createAdminSettingsService(ctx: AdminSettingsContext) {
  return {
    list: () => listSettings(ctx),
    update: (request: SettingsRequest, values: Record<string, string>) =>
      updateSettings(ctx, request, values),
    reset: (request: SettingsRequest) => resetSettings(ctx, request),
    approve: (request: SettingsRequest, id: string) => decideChange(ctx, request, id, 'approve'),
    reject: (request: SettingsRequest, id: string) => decideChange(ctx, request, id, 'reject'),
    syncPrices: (actor: Actor) => syncPrices(ctx, actor),
    syncStatus: () => syncStatus(ctx),
  };
}

export type AdminSettingsService = ReturnType<typeof createAdminSettingsService>;

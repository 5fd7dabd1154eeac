import { SETTINGS_MSG, type TStepUp } from '@coffer/shared';
import { useState } from 'react';
import { toast } from 'sonner';
import { useResetAppSettings } from '../api/reset-app-settings';
import { useUpdateAppSettings } from '../api/update-app-settings';
import { tellSettingsResult } from './settings-draft';

export type TSettingsAction = 'save' | 'reset';

/**
 * The save or reset waiting for the admin's fresh second factor, and sending it once given:
 * `changed` is what a save sends, `onApplied` runs when the server took it, `onFailed` gets
 * the refusal and what failed.
 */
export function useSettingsStepUp({
  changed,
  onApplied,
  onFailed,
}: {
  changed: readonly [string, string][];
  onApplied: () => void;
  onFailed: (err: unknown, failure: string) => void;
}) {
  const update = useUpdateAppSettings();
  const reset = useResetAppSettings();
  const [asking, setAsking] = useState<TSettingsAction | null>(null);

  async function confirm(stepUp: TStepUp) {
    if (asking === 'reset') {
      const result = await reset.mutateAsync({ stepUp });
      setAsking(null);
      onApplied();
      tellSettingsResult(result, SETTINGS_MSG.reset);
      return;
    }
    const result = await update.mutateAsync({ values: Object.fromEntries(changed), stepUp });
    setAsking(null);
    onApplied();
    tellSettingsResult(result, SETTINGS_MSG.updated);
  }

  function failed(err: unknown) {
    const failure = asking === 'reset' ? SETTINGS_MSG.resetFailed : SETTINGS_MSG.updateFailed;
    setAsking(null);
    onFailed(err, failure);
    toast.error('Error', { description: failure });
  }

  return {
    asking,
    ask: setAsking,
    cancel: () => setAsking(null),
    confirm,
    failed,
    saving: update.isPending,
    busy: update.isPending || reset.isPending,
  };
}

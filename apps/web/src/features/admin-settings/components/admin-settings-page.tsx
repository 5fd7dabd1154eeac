import { SETTINGS_MSG } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { errorMessage } from '@web/lib/api-client';
import { useCan } from '@web/lib/staff';
import { RotateCcw, Save } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useAppSettings } from '../api/get-app-settings';
import { PendingChangesCard } from './pending-changes-card';
import { PriceSyncCard } from './price-sync-card';
import { ResetSettingsDialog } from './reset-settings-dialog';
import {
  changedSettings,
  saveDescription,
  settingErrors,
  type TSettingsDraft,
} from './settings-draft';
import { SettingsSections } from './settings-sections';
import { useSettingsStepUp } from './use-settings-step-up';

/** /dashboard/admin/settings: price sync and Global Configuration. */
export default function AdminSettingsPage() {
  const settings = useAppSettings();
  const can = useCan();
  const formId = useId();
  const [confirmReset, setConfirmReset] = useState(false);
  const toldFetchFailure = useRef(false);

  useEffect(() => {
    if (settings.isError && !toldFetchFailure.current) {
      toldFetchFailure.current = true;
      toast.error('Error', { description: SETTINGS_MSG.fetchFailed });
    }
    if (settings.isSuccess) toldFetchFailure.current = false;
  }, [settings.isError, settings.isSuccess]);

  const rows = settings.data?.settings ?? [];
  const pending = settings.data?.pending ?? [];
  // The draft holds only what the admin touched; each changed value is checked with the
  // server's own words as it is typed (Save stays off meanwhile), and again on submit.
  const form = useZodForm<TSettingsDraft>(
    null,
    {},
    { check: (draft) => settingErrors(changedSettings(draft, rows), rows) },
  );
  const changed = changedSettings(form.watch(), rows);
  const errors = settingErrors(changed, rows);
  const invalid = Object.keys(errors).length > 0;
  const stepUp = useSettingsStepUp({
    changed,
    onApplied: () => form.reset({}),
    onFailed: (err, failure) => showServerError(form, err, (e) => errorMessage(e, failure)),
  });

  function save() {
    if (changed.length === 0) return;
    stepUp.ask('save');
  }

  const resetting = stepUp.asking === 'reset';
  // Proposing settings is for the roles that may; the others read them.
  const mayPropose = can('settings.propose');
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-fg">App Settings</h1>
        <p className="text-sm text-muted">
          Switching money off takes effect at once, for every customer, on every server; every other
          change takes effect when a second staff member approves it.
        </p>
      </header>

      <PriceSyncCard />

      <section aria-labelledby="global-configuration" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="global-configuration" className="text-xl font-semibold text-fg">
              Global Configuration
            </h2>
            <p className="text-sm text-muted">
              {changed.length === 0
                ? 'No unsaved changes.'
                : `${changed.length} unsaved change${changed.length === 1 ? '' : 's'}.`}
            </p>
          </div>
          {mayPropose ? (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() => setConfirmReset(true)}
                disabled={stepUp.busy || !settings.isSuccess}
              >
                <RotateCcw className="h-4 w-4" aria-hidden />
                Reset to Defaults
              </Button>
              {/* Sends the form below: the pending changes between them have dialogs of their own. */}
              <Button
                type="submit"
                form={formId}
                disabled={stepUp.busy || changed.length === 0 || invalid}
              >
                <Save className="h-4 w-4" aria-hidden />
                {stepUp.saving ? 'Saving...' : 'Save Settings'}
              </Button>
            </div>
          ) : null}
        </div>
        {settings.isSuccess ? <PendingChangesCard pending={pending} settings={rows} /> : null}
        <Form
          id={formId}
          form={form}
          onSubmit={save}
          live={{ errors, shown: () => true }}
          className="space-y-4"
        >
          <FormError />
          <SettingsSections settings={settings} />
        </Form>
      </section>

      <ResetSettingsDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        onReset={() => {
          setConfirmReset(false);
          form.clearErrors('root');
          stepUp.ask('reset');
        }}
      />

      <StepUpDialog
        open={stepUp.asking !== null}
        title={resetting ? 'Confirm the reset to defaults' : 'Confirm the settings change'}
        description={
          resetting
            ? 'Every setting goes back to its default; the risk settings among them wait for another admin’s approval.'
            : saveDescription(changed)
        }
        confirmLabel={resetting ? 'Reset to Defaults' : 'Save Settings'}
        pendingLabel={resetting ? 'Resetting...' : 'Saving...'}
        danger={resetting}
        onCancel={stepUp.cancel}
        onConfirm={stepUp.confirm}
        onFailure={stepUp.failed}
      />
    </div>
  );
}

import {
  needsApproval,
  SETTING_SECTIONS,
  SETTINGS_MSG,
  settingLabel,
  settingSection,
  settingValueError,
  type TAppSetting,
  type TStepUp,
  type TUpdateSettingsResponse,
} from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@web/components/ui/dialog';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { RefreshCw, RotateCcw, Save } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useAppSettings } from '../api/get-app-settings';
import { useResetAppSettings } from '../api/reset-app-settings';
import { useUpdateAppSettings } from '../api/update-app-settings';
import { PendingChangesCard } from './pending-changes-card';
import { PriceSyncCard } from './price-sync-card';
import { SettingField } from './setting-field';

const SECTION_TEXT: Record<(typeof SETTING_SECTIONS)[number], string> = {
  'Feature Controls': 'Switch customer features on and off. Enforced by the server at once.',
  'API Configuration': 'Outside services Coffer links to or records.',
  'Limits & Security': 'Limits applied to every customer.',
  'Other Settings': 'Staking, bank statements and everything else.',
};

/** /dashboard/admin/settings: price sync and Global Configuration. */
export default function AdminSettingsPage() {
  const settings = useAppSettings();
  const update = useUpdateAppSettings();
  const reset = useResetAppSettings();
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  /** The save or reset waiting for the admin's fresh second factor. */
  const [asking, setAsking] = useState<'save' | 'reset' | null>(null);
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
  const stored = useMemo(() => new Map(rows.map((s) => [s.key, s.value])), [rows]);
  const changed = Object.entries(draft).filter(([key, value]) => stored.get(key) !== value);
  const errors = new Map<string, string>();
  for (const [key, value] of changed) {
    const row = rows.find((s) => s.key === key);
    const error = row ? settingValueError(key, row.type, value) : null;
    if (error) errors.set(key, error);
  }

  const needApproval = changed.filter(([key, value]) => needsApproval(key, value));

  /** What the server did: applied now, or waiting for another admin (four eyes). */
  function tell(result: TUpdateSettingsResponse, done: string) {
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

  function onSave() {
    setServerError(null);
    if (changed.length === 0 || errors.size > 0) return;
    setAsking('save');
  }

  async function confirm(stepUp: TStepUp) {
    if (asking === 'reset') {
      const result = await reset.mutateAsync({ stepUp });
      setAsking(null);
      setDraft({});
      tell(result, SETTINGS_MSG.reset);
      return;
    }
    const result = await update.mutateAsync({ values: Object.fromEntries(changed), stepUp });
    setAsking(null);
    setDraft({});
    tell(result, SETTINGS_MSG.updated);
  }

  function failed(err: unknown) {
    const failure = asking === 'reset' ? SETTINGS_MSG.resetFailed : SETTINGS_MSG.updateFailed;
    setAsking(null);
    setServerError(errorMessage(err, failure));
    toast.error('Error', { description: failure });
  }

  const saveDescription =
    needApproval.length === 0
      ? 'The change applies at once, for every customer.'
      : `${needApproval.map(([key]) => settingLabel(key)).join(', ')} will wait for another admin’s approval${
          needApproval.length < changed.length ? '; the other changes apply at once' : ''
        }.`;

  let configuration: ReactNode;
  if (settings.isPending) {
    configuration = <PageSpinner text="Loading settings..." />;
  } else if (settings.isError) {
    configuration = (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 pt-5" role="alert">
          <p className="font-semibold text-fg">{SETTINGS_MSG.fetchFailed}</p>
          <p className="text-sm text-muted">{errorMessage(settings.error, 'Request failed')}</p>
          <Button variant="outline" onClick={() => void settings.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  } else {
    configuration = (
      <div className="space-y-4">
        {SETTING_SECTIONS.map((section) => {
          const inSection = rows.filter((s) => settingSection(s.key) === section);
          if (inSection.length === 0) return null;
          const titleId = `section-${section.replace(/\W+/g, '-').toLowerCase()}`;
          return (
            <Card key={section} aria-labelledby={titleId} role="region">
              <CardHeader>
                <CardTitle id={titleId}>{section}</CardTitle>
                <CardDescription>{SECTION_TEXT[section]}</CardDescription>
              </CardHeader>
              <CardContent className="divide-y divide-border">
                {inSection.map((setting: TAppSetting) => (
                  <SettingField
                    key={setting.key}
                    setting={setting}
                    value={draft[setting.key] ?? setting.value}
                    pendingValue={pending.find((p) => p.key === setting.key)?.value ?? null}
                    changed={(draft[setting.key] ?? setting.value) !== setting.value}
                    error={errors.get(setting.key) ?? null}
                    onChange={(value) => setDraft((d) => ({ ...d, [setting.key]: value }))}
                  />
                ))}
              </CardContent>
            </Card>
          );
        })}
      </div>
    );
  }

  const busy = update.isPending || reset.isPending;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-fg">App Settings</h1>
        <p className="text-sm text-muted">
          Changes take effect at once for every customer, on every server. Risk settings (the daily
          limit, the security hold, confirmations, explorer links) and switching money back on take
          effect when a second admin approves them.
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
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              onClick={() => setConfirmReset(true)}
              disabled={busy || !settings.isSuccess}
            >
              <RotateCcw className="h-4 w-4" aria-hidden />
              Reset to Defaults
            </Button>
            <Button onClick={onSave} disabled={busy || changed.length === 0 || errors.size > 0}>
              <Save className="h-4 w-4" aria-hidden />
              {update.isPending ? 'Saving...' : 'Save Settings'}
            </Button>
          </div>
        </div>
        {settings.isSuccess ? <PendingChangesCard pending={pending} settings={rows} /> : null}
        {serverError ? (
          <p role="alert" className="text-sm text-danger">
            {serverError}
          </p>
        ) : null}
        {configuration}
      </section>

      <Dialog open={confirmReset} onOpenChange={setConfirmReset}>
        <DialogContent
          title="Reset to Defaults?"
          description="Every setting goes back to its default value, for every customer: at once, except the risk settings, which wait for another admin's approval. The change is recorded in the audit log."
        >
          <div className="flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="danger"
              onClick={() => {
                setConfirmReset(false);
                setServerError(null);
                setAsking('reset');
              }}
            >
              Reset to Defaults
            </Button>
          </div>
        </DialogContent>
      </Dialog>

      <StepUpDialog
        open={asking !== null}
        title={asking === 'reset' ? 'Confirm the reset to defaults' : 'Confirm the settings change'}
        description={
          asking === 'reset'
            ? 'Every setting goes back to its default; the risk settings among them wait for another admin’s approval.'
            : saveDescription
        }
        confirmLabel={asking === 'reset' ? 'Reset to Defaults' : 'Save Settings'}
        pendingLabel={asking === 'reset' ? 'Resetting...' : 'Saving...'}
        danger={asking === 'reset'}
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
    </div>
  );
}

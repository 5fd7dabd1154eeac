import {
  SETTING_SECTIONS,
  SETTINGS_MSG,
  settingSection,
  type TAppSetting,
  type TPendingSettingChange,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { RefreshCw } from 'lucide-react';
import type { useAppSettings } from '../api/get-app-settings';
import { SettingFormField } from './setting-form-field';

const SECTION_TEXT: Record<(typeof SETTING_SECTIONS)[number], string> = {
  'Feature Controls': 'Switch customer features on and off. Enforced by the server at once.',
  'API Configuration': 'Outside services Coffer links to or records.',
  'Limits & Security': 'Limits applied to every customer.',
  'Other Settings': 'Staking, bank statements and everything else.',
};

/** The settings, a card per section, each with the input its type calls for. */
function Sections({
  rows,
  pending,
}: {
  rows: readonly TAppSetting[];
  pending: readonly TPendingSettingChange[];
}) {
  return (
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
              {inSection.map((setting) => (
                <SettingFormField
                  key={setting.key}
                  setting={setting}
                  pendingValue={pending.find((p) => p.key === setting.key)?.value ?? null}
                />
              ))}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}

/** Global Configuration's settings as they load: the spinner, the failure, or the sections. */
export function SettingsSections({ settings }: { settings: ReturnType<typeof useAppSettings> }) {
  if (settings.isPending) return <PageSpinner text="Loading settings..." />;
  if (settings.isError) {
    return (
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
  }
  return <Sections rows={settings.data.settings} pending={settings.data.pending} />;
}

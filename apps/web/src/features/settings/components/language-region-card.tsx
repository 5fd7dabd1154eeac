import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { SettingRow } from './setting-row';

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Unknown';
  } catch {
    return 'Unknown';
  }
}

/** The display language and the time zone dates are shown in (this browser's). */
export function LanguageRegionCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Language &amp; Region</CardTitle>
        <CardDescription>Language and time zone used on this device.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-border">
          <SettingRow term="Language">English (US)</SettingRow>
          <SettingRow term="Time zone">{browserTimeZone()}</SettingRow>
        </dl>
      </CardContent>
    </Card>
  );
}

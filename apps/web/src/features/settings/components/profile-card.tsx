import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { EmailText } from '@web/components/ui/email-text';
import { SettingRow } from './setting-row';

/** The account's e-mail and the currency amounts are shown in (USD, fixed for now). */
export function ProfileCard({ email }: { email: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>Your account details.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-border">
          <SettingRow term="Email">
            <EmailText email={email} />
          </SettingRow>
          <SettingRow term="Currency display">USD</SettingRow>
        </dl>
      </CardContent>
    </Card>
  );
}

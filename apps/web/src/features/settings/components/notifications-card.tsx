import { Badge } from '@web/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { SettingRow } from './setting-row';

/**
 * product.md S11: only what Coffer really sends. There are no push notifications; these
 * e-mails always go out, because each tells the customer about their money or their
 * account's security.
 */
export function NotificationsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          Coffer e-mails you about your money and your account's security. These e-mails cannot be
          turned off.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-border">
          <SettingRow term="Withdrawals and bank transfers sent or rejected">
            <Badge variant="success">E-mail</Badge>
          </SettingRow>
          <SettingRow term="New sign-ins, password and security changes, security holds">
            <Badge variant="success">E-mail</Badge>
          </SettingRow>
          <SettingRow term="Identity verification decisions and support replies">
            <Badge variant="success">E-mail</Badge>
          </SettingRow>
        </dl>
      </CardContent>
    </Card>
  );
}

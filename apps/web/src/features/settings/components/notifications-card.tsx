import { Badge } from '../../../components/ui/badge';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { SettingRow } from './setting-row';

/** Notification preferences: shown as they are, not changeable yet. */
export function NotificationsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          How Coffer keeps you informed. These cannot be changed yet.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-border">
          <SettingRow term="Push notifications">
            <Badge variant="success">Enabled</Badge>
          </SettingRow>
          <SettingRow term="Email notifications">
            <Badge variant="secondary">Disabled</Badge>
          </SettingRow>
        </dl>
      </CardContent>
    </Card>
  );
}

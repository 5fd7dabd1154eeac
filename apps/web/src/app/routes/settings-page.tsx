import { ChangePasswordCard } from '../../features/account-security/components/change-password-card';
import { SecurityActivityCard } from '../../features/account-security/components/security-activity-card';
import { SessionsCard } from '../../features/account-security/components/sessions-card';
import { PasskeysCard } from '../../features/passkeys/components/passkeys-card';
import { AppearanceCard } from '../../features/settings/components/appearance-card';
import { LanguageRegionCard } from '../../features/settings/components/language-region-card';
import { NotificationsCard } from '../../features/settings/components/notifications-card';
import { ProfileCard } from '../../features/settings/components/profile-card';
import { TwoFactorSettingsCard } from '../../features/two-factor/components/two-factor-settings-card';
import { useSession } from '../../lib/session';
import { useTheme } from '../../lib/use-theme';

/** /dashboard/settings: the settings cards of , in the order given there. */
export default function SettingsPage() {
  const { theme, setTheme } = useTheme();
  const session = useSession();
  const email = session.data?.user.email ?? '';

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold text-fg">Settings</h1>
        <p className="text-sm text-muted">Manage your account preferences.</p>
      </header>
      <AppearanceCard theme={theme} onThemeChange={setTheme} />
      <ProfileCard email={email} />
      <TwoFactorSettingsCard />
      <PasskeysCard twoFactorEnabled={session.data?.twoFactor.enabled ?? false} />
      <ChangePasswordCard
        email={email}
        twoFactorEnabled={session.data?.twoFactor.enabled ?? false}
      />
      <SessionsCard />
      <SecurityActivityCard />
      <NotificationsCard />
      <LanguageRegionCard />
    </div>
  );
}

import { ChangePasswordCard } from '@web/features/account-security/components/change-password-card';
import { SecurityActivityCard } from '@web/features/account-security/components/security-activity-card';
import { SessionsCard } from '@web/features/account-security/components/sessions-card';
import { PasskeysCard } from '@web/features/passkeys/components/passkeys-card';
import { AppearanceCard } from '@web/features/settings/components/appearance-card';
import { LanguageRegionCard } from '@web/features/settings/components/language-region-card';
import { NotificationsCard } from '@web/features/settings/components/notifications-card';
import { ProfileCard } from '@web/features/settings/components/profile-card';
import { TwoFactorSettingsCard } from '@web/features/two-factor/components/two-factor-settings-card';
import { useSession } from '@web/lib/session';
import { useTheme } from '@web/lib/use-theme';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** /dashboard/settings: the settings cards of , in the order given there. */
export default function SettingsPage() {
  const { theme, setTheme } = useTheme();
  const session = useSession();
  const email = session.data?.user.email ?? '';
  // A link to one card (`/dashboard/settings#passkeys`) opens the page at that card.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

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

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import type { Theme } from '@web/lib/theme';
import { Moon, Sun } from 'lucide-react';

/**
 * Light or dark theme (light by default), kept on this device only. The page passes
 * `useTheme()` in, so features stay free of the app layer.
 */
export function AppearanceCard({
  theme,
  onThemeChange,
}: {
  theme: Theme;
  onThemeChange: (theme: Theme) => void;
}) {
  const dark = theme === 'dark';
  const Icon = dark ? Moon : Sun;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Appearance</CardTitle>
        <CardDescription>Choose how Coffer looks on this device.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <Icon className="h-5 w-5 shrink-0 text-muted" aria-hidden />
            <div>
              <Label htmlFor="settings-dark-mode">Dark mode</Label>
              <p id="settings-dark-mode-hint" className="text-sm text-muted">
                {dark ? 'The dark theme is on.' : 'The light theme is on.'}
              </p>
            </div>
          </div>
          <Switch
            id="settings-dark-mode"
            checked={dark}
            onCheckedChange={(checked) => onThemeChange(checked ? 'dark' : 'light')}
            aria-describedby="settings-dark-mode-hint"
          />
        </div>
      </CardContent>
    </Card>
  );
}

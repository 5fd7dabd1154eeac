import {
  API_PROVIDERS,
  describeStakingRate,
  MAX_STAKING_DAILY_RATE,
  MONEY_STOPS,
  SECURITY_HOLD_HOURS,
  settingHelp,
  settingLabel,
  type TAppSetting,
} from '@coffer/shared';
import { Input, Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import { Switch } from '@web/components/ui/switch';
import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';

type Props = {
  setting: TAppSetting;
  value: string;
  /** The value another admin has been asked to approve, if any. */
  pendingValue: string | null;
  error: string | null;
  changed: boolean;
  onChange: (value: string) => void;
};

/** What a number setting accepts, as the browser's number input should offer it. */
const NUMBER_LIMITS: Record<string, { min?: string; max?: string; step: string }> = {
  max_daily_withdrawal: { min: '0', step: '0.01' },
  security_hold_hours: {
    min: String(SECURITY_HOLD_HOURS.min),
    max: String(SECURITY_HOLD_HOURS.max),
    step: '1',
  },
  staking_daily_rate: { min: '0', max: MAX_STAKING_DAILY_RATE, step: '0.0001' },
};

/** The price services by their own names. */
const PROVIDER_NAMES: Record<(typeof API_PROVIDERS)[number], string> = {
  coingecko: 'CoinGecko',
  coinmarketcap: 'CoinMarketCap',
};

/** A stored value as the screen shows it: an empty one would be invisible. */
export function showSettingValue(value: string): string {
  return value === '' ? '(empty)' : value;
}

/** What the value being typed means, where a number alone does not say (a daily rate). */
function hint(setting: TAppSetting, value: string): string | null {
  if (setting.key !== 'staking_daily_rate') return null;
  return /^\d+(\.\d+)?$/.test(value) ? describeStakingRate(value) : null;
}

/** Which changes of this setting wait for a second admin (four eyes), in words. */
function approvalNote(key: string): string | null {
  if (key in MONEY_STOPS)
    return MONEY_STOPS[key] === 'false'
      ? 'Turning this off applies at once; turning it back on waits for another staff member\u2019s approval.'
      : 'Turning this on applies at once; turning it off waits for another staff member\u2019s approval.';
  return 'A change takes effect when another staff member approves it.';
}

/** One setting, with the input its type calls for. */
export function SettingField({ setting, value, pendingValue, error, changed, onChange }: Props) {
  const id = `setting-${setting.key}`;
  const describedBy = [`${id}-description`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  const label = settingLabel(setting.key);
  const note = hint(setting, value);
  const approval = approvalNote(setting.key);

  let control: ReactNode;
  if (setting.type === 'boolean') {
    control = (
      <Switch
        id={id}
        checked={value === 'true'}
        onCheckedChange={(on) => onChange(on ? 'true' : 'false')}
        aria-describedby={describedBy}
      />
    );
  } else if (setting.key === 'api_provider') {
    control = (
      <select
        id={id}
        className={SELECT_CLASS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      >
        {API_PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {PROVIDER_NAMES[p]}
          </option>
        ))}
      </select>
    );
  } else if (setting.type === 'json') {
    control = (
      <Textarea
        id={id}
        rows={4}
        className="font-mono"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
    );
  } else if (setting.type === 'number') {
    const limits = NUMBER_LIMITS[setting.key] ?? { step: 'any' };
    control = (
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        {...limits}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
    );
  } else {
    control = (
      <Input
        id={id}
        // The explorer templates are web addresses too; `{hash}` is fine in a URL field.
        type={
          setting.key === 'support_chat_url' || setting.key.startsWith('explorer_tx_url_')
            ? 'url'
            : 'text'
        }
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
    );
  }

  const inline = setting.type === 'boolean';
  return (
    <div
      className={cn(
        'gap-2 py-4',
        inline ? 'flex items-start justify-between gap-4' : 'flex flex-col',
      )}
    >
      <div className="min-w-0 space-y-1">
        <Label htmlFor={id} className="flex flex-wrap items-center gap-2">
          {label}
          {changed ? <span className="text-xs font-normal text-warning">(unsaved)</span> : null}
        </Label>
        <p id={`${id}-description`} className="text-xs text-muted">
          {/* The server's description only for a setting this build has no words for. */}
          {settingHelp(setting.key) ?? setting.description}
          {note ? <span className="block">{note}</span> : null}
          {approval ? <span className="block">{approval}</span> : null}
          {pendingValue !== null ? (
            <span className="block font-medium text-warning">
              Awaiting another admin&rsquo;s approval: {showSettingValue(pendingValue)}
            </span>
          ) : null}
        </p>
      </div>
      <div className={cn(inline ? 'shrink-0 pt-1' : 'w-full max-w-xl')}>{control}</div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

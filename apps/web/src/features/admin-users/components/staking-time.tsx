import type { TAdminStakingTime } from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { useEffect, useState } from 'react';

const MINUTE = 60_000;

/** days+hours, hours+minutes, or minutes. */
export function formatElapsed(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes % 60}m`;
  return `${minutes}m`;
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function StakingTime({ value }: { value: TAdminStakingTime }) {
  const now = useNow(MINUTE);
  let text: string;
  let active = false;
  if (value.state === 'no_eth') text = 'No ETH';
  else if (value.state === 'starts_soon' || now < Date.parse(value.since))
    text = 'Staking starts soon';
  else {
    text = formatElapsed(now - Date.parse(value.since));
    active = true;
  }
  return (
    <span className="flex flex-col items-start gap-1">
      <span className="tabular-nums">{text}</span>
      <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>
    </span>
  );
}

/**
 * How long something has waited, as a queue shows it: "< 1 min", "12 min", "3 h", "2 d".
 * Whole units, rounded down, so an item never looks younger than it is by more than one
 * unit; a date in the future (a clock ahead) reads as just arrived.
 */
export function ageText(sinceIso: string, now: Date = new Date()): string {
  const ms = now.getTime() - Date.parse(sinceIso);
  const minutes = Number.isFinite(ms) ? Math.floor(ms / 60_000) : 0;
  if (minutes < 1) return '< 1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

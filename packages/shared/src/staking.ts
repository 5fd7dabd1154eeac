/**
 * Staking rate figures for display. The rate is a decimal string from the settings;
 * arithmetic here is for showing a percentage only, never for money.
 */
export const DEFAULT_STAKING_DAILY_RATE = '0.0001';
export const DEFAULT_STAKING_PROGRAM_START = '2025-07-10T00:00:00Z';

/** Yearly equivalent of a daily rate, compounded daily over 365 days. */
export function yearlyFromDaily(dailyRate: number): number {
  return (1 + dailyRate) ** 365 - 1;
}

function percent(value: number, maxDigits: number): string {
  return `${(value * 100).toLocaleString('en-US', { maximumFractionDigits: maxDigits })}%`;
}

/** "0.01% daily, about 3.7% a year, variable, not guaranteed" */
export function describeStakingRate(dailyRate: string): string {
  const daily = Number(dailyRate);
  return `${percent(daily, 4)} daily, about ${percent(yearlyFromDaily(daily), 1)} a year, variable, not guaranteed`;
}

export function formatDailyRate(dailyRate: string): string {
  return percent(Number(dailyRate), 4);
}

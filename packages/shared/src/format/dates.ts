/**
 * How dates and times read on every screen: en-US, in the viewer's time zone unless a caller
 * names one (a date that is the same for everyone, as a program's start, is shown in UTC).
 *
 *   formatDateTime  'Nov 28, 2026, 4:53 PM'
 *   formatDate      'Nov 28, 2026'
 *   formatShortDate 'Nov 28'        (where the year goes without saying: a chart's axis)
 *   formatTime      '4:53 PM'
 *
 * Something that is not a date reads '—'.
 */

export type TDateInput = string | number | Date;

export type TDateOptions = {
  /** An IANA zone such as 'UTC'; the viewer's own zone when left out. */
  timeZone?: string;
};

type TDateForm = 'dateTime' | 'date' | 'shortDate' | 'time';

const FORMS: Record<TDateForm, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  shortDate: { month: 'short', day: 'numeric' },
  time: { timeStyle: 'short' },
};

// Building an Intl.DateTimeFormat is far slower than using one: one per form and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(form: TDateForm, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${form}|${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { ...FORMS[form], timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

function toTime(value: TDateInput): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : Date.parse(value);
}

function format(form: TDateForm, value: TDateInput, options: TDateOptions): string {
  const time = toTime(value);
  if (!Number.isFinite(time)) return '—';
  // Newer ICU puts a narrow no-break space before AM/PM, older ones a plain space: one
  // no-break space reads the same in every browser and keeps '4:53 PM' on one line.
  return formatterFor(form, options.timeZone)
    .format(time)
    .replace(/[\u202f ](?=[AP]M\b)/, '\u00a0');
}

/** 'Nov 28, 2026, 4:53 PM'. */
export function formatDateTime(value: TDateInput, options: TDateOptions = {}): string {
  return format('dateTime', value, options);
}

/** 'Nov 28, 2026'. */
export function formatDate(value: TDateInput, options: TDateOptions = {}): string {
  return format('date', value, options);
}

/** 'Nov 28': a date whose year the reader knows from around it. */
export function formatShortDate(value: TDateInput, options: TDateOptions = {}): string {
  return format('shortDate', value, options);
}

/** '4:53 PM'. */
export function formatTime(value: TDateInput, options: TDateOptions = {}): string {
  return format('time', value, options);
}

/**
 * How long ago something was, in the largest whole unit: 'less than a minute', '1 minute',
 * '5 hours', '3 days'. For a span that ends now, as "prices from 12 minutes ago".
 */
export function formatAge(since: TDateInput, now: number = Date.now()): string {
  const time = toTime(since);
  if (!Number.isFinite(time)) return '—';
  const minutes = Math.floor(Math.max(0, now - time) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const [count, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 60 * 24
        ? [Math.floor(minutes / 60), 'hour']
        : [Math.floor(minutes / (60 * 24)), 'day'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

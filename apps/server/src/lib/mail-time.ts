const UTC_DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const UTC_TIME = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** "24 Nov 2026, 08:44 UTC": one zone for everyone, as a mail cannot know the reader's. */
export function mailTime(at: Date): string {
  return `${UTC_DAY.format(at)}, ${UTC_TIME.format(at)} UTC`;
}

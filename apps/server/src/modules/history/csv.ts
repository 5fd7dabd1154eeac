/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: a cell that starts with = + - @
 * (or a tab or carriage return) would be read as a formula, so it gets a leading quote
 * mark; a cell with a comma, a quote or a line break is quoted.
 */
export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: Array<string | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

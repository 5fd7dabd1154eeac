import { changeDirection } from '@coffer/shared';

/*
 * The amount and date formatting every screen uses lives in @coffer/shared (format/): one
 * decimal policy per asset, one date policy. What stays here belongs to the web app alone.
 */

/** Text colour for a 24 h change, from the theme tokens: green from zero up, red below. */
export function changeClass(pct: string | null | undefined): string {
  const direction = changeDirection(pct);
  return direction === 'up' ? 'text-success' : direction === 'down' ? 'text-danger' : 'text-muted';
}

import {
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  SESSION_TIMEOUT_DEFAULTS,
  wholeNumberIn,
} from '@coffer/shared';

/** The session timeouts in force, in seconds (docs/decisions/0013). */
export type SessionLimits = {
  idleSecondsCustomer: number;
  idleSecondsAdmin: number;
  absoluteSeconds: number;
};

/**
 * The limits from the app settings. The settings screen refuses values out of bounds; a
 * row edited by hand into something unreadable falls back to the default rather than to
 * no limit at all.
 */
export function limitsOf(settings: Map<string, string>): SessionLimits {
  const read = (key: keyof typeof SESSION_TIMEOUT_DEFAULTS, range: { min: number; max: number }) =>
    wholeNumberIn(settings.get(key) ?? '', range) ?? SESSION_TIMEOUT_DEFAULTS[key];
  return {
    idleSecondsCustomer: read('session_idle_minutes_customer', SESSION_IDLE_MINUTES) * 60,
    idleSecondsAdmin: read('session_idle_minutes_admin', SESSION_IDLE_MINUTES) * 60,
    absoluteSeconds: read('session_absolute_hours', SESSION_ABSOLUTE_HOURS) * 3600,
  };
}

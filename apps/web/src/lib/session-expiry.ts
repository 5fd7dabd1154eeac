/**
 * What the tab knows about its session's idle deadline, and whether the person is using
 * the page (docs/decisions/0013).
 *
 * The server says on every response how many seconds the session has left unless used
 * (`X-Session-Expires-In`); the deadline is kept on this tab's clock from the moment the
 * request was sent, so a browser whose clock is wrong still counts right.
 *
 * A request slides the server's idle timer only when it is user-initiated. The rule: a
 * request made within ACTIVE_WINDOW_MS of a key press or a pointer press (or of the page
 * loading, which is a navigation) is the user's; any other request (polls, refetches after
 * a realtime event, the tab's own expiry checks) is sent with `X-Coffer-Background: 1`.
 */

const ACTIVE_WINDOW_MS = 10_000;

let lastInputAt = Date.now();

if (typeof window !== 'undefined') {
  const note = (event: Event) => {
    // Only the person's own input: an event a script dispatches is not activity.
    if (event.isTrusted) lastInputAt = Date.now();
  };
  for (const type of ['pointerdown', 'keydown']) {
    window.addEventListener(type, note, { capture: true, passive: true });
  }
}

/** Whether a request made now counts as the user's own (and so keeps the session alive). */
export function userIsActive(): boolean {
  return Date.now() - lastInputAt < ACTIVE_WINDOW_MS;
}

export type SessionExpirySnapshot = {
  /** When the session ends unless used, on this tab's clock; null when not known. */
  deadline: number | null;
  /** When the deadline was learnt: an older answer never overrides a newer one. */
  notedAt: number;
};

let snapshot: SessionExpirySnapshot = { deadline: null, notedAt: 0 };
const listeners = new Set<() => void>();

/** Records `secondsLeft` as the server counted it for a request sent at `sentAt`. */
export function noteSecondsLeft(secondsLeft: number, sentAt: number): void {
  if (!Number.isFinite(secondsLeft) || sentAt < snapshot.notedAt) return;
  snapshot = { deadline: sentAt + secondsLeft * 1000, notedAt: sentAt };
  for (const listener of listeners) listener();
}

export function subscribeSessionExpiry(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function sessionExpirySnapshot(): SessionExpirySnapshot {
  return snapshot;
}

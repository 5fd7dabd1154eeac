/**
 * Test-only fault injection. `COFFER_TEST_FAULT` names one point where the server kills
 * itself with SIGKILL, as a power cut or an out-of-memory kill would, so that a test can run
 * the real server and prove what survives the crash. When the variable is unset (always,
 * outside those tests) every point does nothing.
 *
 * - `kill-after-commit`: a change that queued outbox work has committed and delivery is
 *   about to start (checked by `outbox.deliver()` when a row is due).
 * - `kill-after-broadcast`: a signed payout transaction was sent to the node and the send
 *   is not yet noted (payouts' submit).
 */
export type FaultPoint = 'kill-after-commit' | 'kill-after-broadcast';

export function faultArmed(point: FaultPoint): boolean {
  return process.env.COFFER_TEST_FAULT === point;
}

/** Dies at once, with no clean-up: no handler, no flush, no graceful close. */
export function crashNow(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL to oneself does not return; this satisfies the type checker.
  throw new Error('unreachable');
}

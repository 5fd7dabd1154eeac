import type { Services } from './app-services';

const HOUR = 3600_000;

/**
 * Housekeeping on a timer. Deleting expired rows is idempotent, so several instances may
 * run it at once; jobs that must run exactly once take an advisory lock.
 */
export function startJobs(s: Services) {
  const cleanUp = async () => {
    try {
      await s.sessions.deleteExpired();
      await s.limiter.deleteStale();
    } catch (err) {
      s.log.warn({ err }, 'clean-up job failed');
    }
  };
  const timer = setInterval(() => void cleanUp(), HOUR);
  timer.unref();
  void cleanUp();
  return { stop: () => clearInterval(timer) };
}

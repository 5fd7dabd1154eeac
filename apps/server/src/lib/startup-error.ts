/**
 * A reason the server or the CLI will not start that the operator fixes (a setting, a key
 * file): printed as its message alone, one line, without a stack trace.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

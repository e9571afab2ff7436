/** What went wrong, as the shell sees it: the exit code and one sentence on standard error. */

/** The command line itself is wrong: exit code 2, as for any Unix command's usage error. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly exitCode = 2;
}

/** The gateway cannot be reached or refused the work, or the output cannot be written: exit code 1. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
  readonly exitCode = 1;
}

/** Exit code of a program stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT_CODE = 130;

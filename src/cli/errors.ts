// Errors the CLI reports without a stack trace.
/** A mistake in how the command was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}

/** The options asked for help (--help, -h): the CLI prints `usage` and exits 0. */
export class HelpRequested extends Error {
  constructor(readonly usage: string) {
    super(`Usage: ${usage}`);
  }
}

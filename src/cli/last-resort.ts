// The serving process's last resort: an error nobody observed (a promise nobody awaited, an 'error'
// event nobody listens to, a throw in a timer) is logged with its stack, and the process keeps
// serving everyone else. Node would otherwise end it, and with it every request and stream in
// flight. Each such log line is a bug to fix where it was raised. The request it came from is not
// tracked: that would take request state kept across every await (AsyncLocalStorage), which costs
// every promise of every request; the stack names the code path.
import type { Logger } from '../log.ts';

/** Installs the handlers on `proc`; returns the function that removes them. */
export function keepServing(logger: Logger, proc: NodeJS.Process = process): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (a bug); still serving');
  };
  const onException = (err: Error, origin: string) => {
    logger.error({ err, origin }, 'uncaught exception (a bug); still serving');
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}

// A process with the serving process's last resort installed (src/cli/last-resort.ts) that leaves
// a promise rejection unobserved and throws in a timer: it logs both (JSON lines on stdout) and
// goes on, then prints "still alive" and exits 0.
import { keepServing } from '../../src/cli/last-resort.ts';
import { createLogger } from '../../src/log.ts';

const logger = createLogger('info', process.stdout);
keepServing(logger);
void Promise.reject(new Error('nobody awaited this'));
setTimeout(() => {
  throw new Error('thrown in a timer');
}, 10);
setTimeout(() => process.stdout.write('still alive\n'), 200);

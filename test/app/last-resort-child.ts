// A process with the serving process's last resort installed (src/cli/last-resort.ts) that, while
// "serving" a request, leaves a promise rejection unobserved and throws in a timer: it logs both
// (JSON lines on stdout) and goes on, then prints "still alive" and exits 0.
import { keepServing } from '../../src/cli/last-resort.ts';
import { createLogger, inRequestScope } from '../../src/log.ts';
import type { IncomingMessage } from 'node:http';

const logger = createLogger('info', process.stdout);
keepServing(logger);
const req = {
  method: 'POST',
  url: '/c/acme/api/things?code=secret-code',
  headers: { 'x-request-id': 'req-last-resort' },
} as unknown as IncomingMessage;
inRequestScope(req, () => {
  void Promise.reject(new Error('nobody awaited this'));
  setTimeout(() => {
    throw new Error('thrown in a timer');
  }, 10);
});
setTimeout(() => process.stdout.write('still alive\n'), 200);

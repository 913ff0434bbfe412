// A process that logs a burst of numbered info lines to standard output (the batched default
// destination), then more after a pause, and exits at once with process.exit.
import { createLogger } from '../../src/log.ts';

const logger = createLogger('info');
const burst = Number(process.argv[2] ?? 3000);
for (let i = 0; i < burst; i++)
  logger.info({ i }, 'a line of the burst, long enough to fill batches');
setTimeout(() => {
  for (let i = burst; i < burst + 100; i++) logger.info({ i }, 'after the pause');
  process.exit(0);
}, 20);

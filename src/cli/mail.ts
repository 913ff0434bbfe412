// `hamlet mail queue`: the operator's view of every outbound mail (account mails of no community
// included), newest first, with its state and why it failed; and whether mail is on at all.
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';

const QUEUE = 'hamlet mail queue [--status pending|sent|failed] [--limit 50]';

export const mailCommands: Command[] = [
  {
    name: 'mail queue',
    summary:
      'every outbound mail, newest first, with its state and why it failed: [--status failed]',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { status: { type: 'string' }, limit: { type: 'string' } },
        QUEUE,
      );
      const status = values.status;
      if (status !== undefined && status !== 'pending' && status !== 'sent' && status !== 'failed')
        throw new UsageError(`--status must be pending, sent or failed.\n${QUEUE}`);
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new UsageError(`--limit must be a whole number from 1 to 1000.\n${QUEUE}`);
      await withHamlet(async (_store, _config, services) => {
        const state = services.mail.state();
        console.log(
          `mail ${state.enabled ? 'on' : 'off'}: ${state.transport} (from ${state.from})`,
        );
        const mails = await services.mail.listAll({ status, limit });
        for (const m of mails)
          console.log(
            `${m.id}  ${m.createdAt}  ${m.status.padEnd(7)}  attempts ${m.attempts}  ${m.to}  ${m.kind}  "${m.subject}"${m.lastError ? `  last: ${m.lastError}` : ''}`,
          );
        if (!mails.length) console.log('No mail.');
      });
    },
  },
];

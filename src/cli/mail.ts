// `hamlet mail queue`: the operator's view of every outbound mail (account mails of no community
// included), newest first, with its state and why it failed; and whether mail is on at all.
// `hamlet mail receive`: one RFC 822 message on stdin (what an MTA's pipe transport runs), a reply
// by e-mail or a bounce (src/domain/mail/inbound.ts), answered by an exit code the MTA understands
// (sysexits): 0 handled, 67 (EX_NOUSER) not a valid reply address — forged, altered, expired or
// naming what is gone —, 77 (EX_NOPERM) the sender is not that person or may not post there, 65
// (EX_DATAERR) nothing to post, 75 (EX_TEMPFAIL) try again later (the database did not answer).
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { cliIo, setExitCode } from './io.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { createLogger } from '../log.ts';
import { MailInbound, type InboundResult } from '../domain/mail/inbound.ts';
import { parseInbound } from '../import/mail/inbound.ts';

const RECEIVE = 'hamlet mail receive [--to <envelope recipient>] < message.eml';

/** The exit code an MTA's pipe transport reads (sysexits.h). */
export function exitCodeOf(result: InboundResult): number {
  if (result.outcome !== 'refused') return 0;
  switch (result.reason) {
    case 'not_a_reply_address':
    case 'forged':
    case 'expired':
    case 'unknown':
      return 67;
    case 'wrong_sender':
    case 'not_allowed':
      return 77;
    case 'empty':
      return 65;
  }
}

async function readStdin(limit = 10 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of cliIo().stdin) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new UsageError(`The message is over ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

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
  {
    name: 'mail receive',
    summary:
      'one incoming mail on stdin (an MTA pipe): a reply by e-mail is posted, a bounce counted',
    usage: `${RECEIVE}\n\nExit codes: 0 handled (posted, queued for approval, bounce counted, auto-reply dropped); 67 not a valid reply address (forged, altered, expired, or its person or topic is gone); 77 the sender is not that person, or may not post there; 65 nothing to post; 75 try again later.`,
    async run(args) {
      const { values } = parseCommandArgs(args, { to: { type: 'string' } }, RECEIVE);
      const raw = await readStdin();
      if (!raw.length) throw new UsageError(`No message on stdin.\n${RECEIVE}`);
      const mail = parseInbound(raw, values.to);
      try {
        await withHamlet(async (store, _config, services) => {
          const inbound = new MailInbound({
            store,
            mailer: services.mail.mailer,
            writes: services.writes,
            rolesOf: (id) => services.auth.rolesOf(id),
            logger: createLogger('info', cliIo().stderr),
          });
          const result = await inbound.receive(mail);
          if (result.outcome === 'posted')
            console.log(
              result.status === 'applied'
                ? `posted ${result.postId} in topic ${result.topicId}`
                : `queued for approval (${result.approvalId}) in topic ${result.topicId}`,
            );
          else if (result.outcome === 'bounce')
            console.log(
              `hard bounce counted (${result.counted}); mail disabled for ${result.disabled} address(es)`,
            );
          else if (result.outcome === 'ignored') console.log(`ignored: ${result.reason}`);
          else console.error(`hamlet mail receive: refused (${result.reason}): ${result.message}`);
          setExitCode(exitCodeOf(result));
        });
      } catch (err) {
        if (err instanceof UsageError) throw err;
        console.error(`hamlet mail receive: ${(err as Error).message}; try again later`);
        setExitCode(75);
      }
    },
  },
];

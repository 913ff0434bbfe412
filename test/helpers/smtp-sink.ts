// A real SMTP server on loopback for tests (smtp-server as a sink): it accepts every mail and keeps
// it parsed by mailparser, so a test reads what a mail client would. `hold()` makes the sink take a
// message's data but not answer it yet (a send in flight), `refuse(code)` answers every mail so.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { waitFor } from './wait.ts';

export type Received = {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Map<string, unknown>;
  /** A header's raw value (first line, as sent). */
  header(name: string): string | undefined;
  parsed: ParsedMail;
};

export type SmtpSink = {
  port: number;
  url: string;
  mails: Received[];
  /** The first mail to `to` matching `subject`, waited for. */
  next(to: string, subject?: RegExp, timeoutMs?: number): Promise<Received>;
  hold(on: boolean): void;
  /** How many messages reached DATA while held. */
  held: number;
  refuse(code: number | null): void;
  close(): Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: Received[] = [];
  let holding = false;
  let refuseWith: number | null = null;
  const sink = {} as SmtpSink;
  sink.held = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuseWith) {
          const err = Object.assign(new Error('refused by the test sink'), {
            responseCode: refuseWith,
          });
          callback(err);
          return;
        }
        if (holding) {
          sink.held++;
          return; // never answered: the sender is killed meanwhile
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const lines = parsed.headerLines;
            mails.push({
              to: Array.isArray(parsed.to) ? parsed.to[0]!.text : (parsed.to?.text ?? ''),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              messageId: parsed.messageId ?? '',
              headers: parsed.headers,
              header: (name) =>
                lines
                  .find((l) => l.key === name.toLowerCase())
                  ?.line.replace(/^[^:]+:\s*/, '')
                  .replace(/\r?\n\s+/g, ' '),
              parsed,
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  Object.assign(sink, {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next: (to: string, subject?: RegExp, timeoutMs = 10_000) =>
      waitFor(() => mails.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject))), {
        timeoutMs,
        message: `a mail to ${to}${subject ? ` matching ${subject}` : ''}`,
      }),
    hold: (on: boolean) => {
      holding = on;
    },
    refuse: (code: number | null) => {
      refuseWith = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return sink;
}

/** The link of a mail's text part that starts with `prefix` (e.g. the origin + `/password/reset`). */
export function linkIn(mail: Received, path: string): string {
  const m = new RegExp(`https?://[^\\s>]+${path.replace(/[/?]/g, '\\$&')}[^\\s>]*`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in:\n${mail.text}`);
  return m[0];
}

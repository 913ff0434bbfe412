// Sends one e-mail (text and HTML parts, a fixed Message-ID, extra headers) over SMTP through
// nodemailer, configured by one URL: `smtp://[user:pass@]host:port` (STARTTLS when offered),
// `smtps://…` (TLS from the start), or `log:` for development (the mail goes to a callback, usually
// the log, nothing leaves the machine). A generic library: it knows nothing of what it sends.
import nodemailer, { type Transporter } from 'nodemailer';

export type OutboundMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** The whole Message-ID with its angle brackets: `<local@domain>`; kept exactly. */
  messageId: string;
  /** Extra header lines (References, In-Reply-To, List-Unsubscribe, Auto-Submitted, …). */
  headers?: Record<string, string>;
};

/**
 * A send's result: accepted by the server, or why not (`permanent`: a 5xx that no retry changes;
 * `code`: the server's reply code, when it answered).
 */
export type MailSendResult =
  { ok: true; response: string } | { ok: false; error: string; permanent: boolean; code?: number };

export interface MailSender {
  /** What the sender is, for logs and admin pages (no password). */
  readonly description: string;
  /** Sends one mail; `signal` aborting gives up the conversation (the result says not sent). */
  send(mail: OutboundMail, signal?: AbortSignal): Promise<MailSendResult>;
  close(): void;
}

export type MailSenderOptions = {
  /** Where `log:` mails go. */
  onLog?: (mail: OutboundMail) => void;
  /** A bound on one SMTP conversation (connection, greeting, the whole send). */
  timeoutMs?: number;
};

/** The sender a URL names; throws with what to fix when the URL is not one we speak. */
export function createMailSender(url: string, options: MailSenderOptions = {}): MailSender {
  if (url === 'log:' || url === 'log') return logSender(options.onLog ?? (() => undefined));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(
      `"${redact(url)}" is not a URL: use smtp://host:port, smtps://host:port or log:`,
    );
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    throw new Error(
      `The mail URL's scheme "${parsed.protocol}" is not one Hamlet speaks: use smtp://, smtps:// or log:`,
    );
  const timeout = options.timeoutMs ?? 30_000;
  const transport: Transporter = nodemailer.createTransport({
    host: parsed.hostname,
    port: Number(parsed.port) || (parsed.protocol === 'smtps:' ? 465 : 25),
    secure: parsed.protocol === 'smtps:',
    // Connections are kept and reused (a new SMTP conversation per mail costs most of a send).
    pool: true,
    maxConnections: 10,
    maxMessages: 1_000,
    ...(parsed.username
      ? {
          auth: {
            user: decodeURIComponent(parsed.username),
            pass: decodeURIComponent(parsed.password),
          },
        }
      : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    description: redact(url),
    async send(mail, signal) {
      try {
        const info = (await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          messageId: mail.messageId,
          headers: mail.headers ?? {},
          ...(signal ? { signal } : {}),
        })) as { response?: string };
        return { ok: true, response: String(info.response ?? '') };
      } catch (err) {
        const e = err as { message?: string; responseCode?: number };
        const code = typeof e.responseCode === 'number' ? e.responseCode : 0;
        return {
          ok: false,
          error: e.message ?? String(err),
          permanent: code >= 500 && code < 600,
          ...(code ? { code } : {}),
        };
      }
    },
    close: () => transport.close(),
  };
}

function logSender(onLog: (mail: OutboundMail) => void): MailSender {
  return {
    description: 'log: (mails are printed to the log, not sent)',
    send: async (mail) => {
      onLog(mail);
      return { ok: true, response: 'logged' };
    },
    close: () => undefined,
  };
}

/** The URL without its password, for logs and pages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

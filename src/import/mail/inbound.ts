// One incoming RFC 822 message (what `hamlet mail receive` reads on stdin) → what the mail side
// needs: who sent it, to which addresses, its text with the quoted mail and signature removed (the
// importer's cleaners), whether a machine wrote it (an auto-reply is never posted), and for a
// delivery status notification (RFC 3464, multipart/report) each recipient's action and status and
// the Message-ID of the mail it returns.
import type { InboundMail, DeliveryReport } from '../../domain/mail/inbound.ts';
import { cleanBody } from './clean.ts';
import { decodeHeaderValue } from './encoded-words.ts';
import { parseFrom, parseMessage } from './message.ts';
import { header, parseMime, splitHeaders, type Headers, type MimePart } from './mime.ts';

// An address in a header: a domain may be one label (`hamlet+…@localhost` on a local run).
const ADDRESS = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*/g;

function addressesIn(headers: Headers, names: string[]): string[] {
  const out: string[] = [];
  for (const name of names)
    for (const value of headers.get(name) ?? [])
      out.push(...(decodeHeaderValue(value).match(ADDRESS) ?? []));
  return out;
}

/** Whether a machine wrote it (RFC 3834 Auto-Submitted, vacation and list headers). */
function automatic(headers: Headers): boolean {
  const auto = header(headers, 'auto-submitted')?.trim().toLowerCase();
  if (auto && auto !== 'no') return true;
  const precedence = header(headers, 'precedence')?.trim().toLowerCase();
  if (precedence && ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return true;
  return Boolean(header(headers, 'x-autoreply') ?? header(headers, 'x-autorespond'));
}

/** The delivery-status part's per-recipient fields and the returned mail's Message-ID. */
function deliveryReport(root: MimePart): DeliveryReport | undefined {
  const report =
    root.contentType === 'multipart/report' &&
    root.params['report-type']?.toLowerCase() === 'delivery-status';
  if (!report) return undefined;
  const status = root.parts.find((p) => p.contentType === 'message/delivery-status');
  const returned = root.parts.find(
    (p) => p.contentType === 'message/rfc822' || p.contentType === 'text/rfc822-headers',
  );
  const recipients: DeliveryReport['recipients'] = [];
  if (status) {
    const groups = status.body.replace(/\r\n/g, '\n').split(/\n\s*\n/);
    for (const group of groups) {
      const { headers } = splitHeaders(`${group}\n\n`);
      const final = header(headers, 'final-recipient') ?? header(headers, 'original-recipient');
      const address = final?.replace(/^[^;]*;/, '').trim();
      if (!address) continue;
      recipients.push({
        address,
        action: (header(headers, 'action') ?? '').trim().toLowerCase(),
        status: (header(headers, 'status') ?? '').trim(),
        diagnostic: header(headers, 'diagnostic-code')?.replace(/\s+/g, ' ').trim() ?? null,
      });
    }
  }
  let originalMessageId: string | null = null;
  if (returned) {
    const inner = splitHeaders(`${returned.body}\n\n`).headers;
    originalMessageId = /<[^<>\s]+>/.exec(header(inner, 'message-id') ?? '')?.[0] ?? null;
  }
  return { recipients, originalMessageId };
}

/** Parses one message; never throws on bad mail (fields are empty instead). */
export function parseInbound(raw: Buffer, envelopeRecipient?: string): InboundMail {
  const message = parseMessage(raw);
  const root = parseMime(raw.toString('latin1').replaceAll('\u0000', ''));
  const recipients = [
    ...(envelopeRecipient ? [envelopeRecipient] : []),
    ...addressesIn(root.headers, ['delivered-to', 'x-original-to', 'to', 'cc']),
  ];
  return {
    messageId: message.messageId,
    from: message.from.address ?? parseFrom(header(root.headers, 'return-path') ?? '').address,
    recipients: [...new Set(recipients.map((r) => r.trim()))],
    subject: message.subject,
    body: cleanBody(message.text),
    automatic: automatic(root.headers),
    report: deliveryReport(root),
  };
}

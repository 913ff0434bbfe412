// A generated mbox of one long reply chain (each message answers the one before it): the shape of
// archive that made one import transaction hold SQLite's write lock for the whole thread.
import { writeFileSync } from 'node:fs';

/** Writes `count` messages, one thread, with distinct senders and dates a minute apart. */
export function writeMailChain(path: string, count: number, subject = 'The long thread'): void {
  const start = Date.parse('2004-03-01T08:00:00Z');
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const date = new Date(start + i * 60_000).toUTCString().replace('GMT', '+0000');
    parts.push(
      [
        `From sender${i % 97}@example.org Mon Mar  1 08:00:00 2004`,
        `From: Sender ${i % 97} <sender${i % 97}@example.org>`,
        `Subject: ${i === 0 ? '' : 'Re: '}${subject}`,
        `Date: ${date}`,
        `Message-ID: <chain-${i}@example.org>`,
        ...(i === 0 ? [] : [`In-Reply-To: <chain-${i - 1}@example.org>`]),
        'Content-Type: text/plain; charset=utf-8',
        '',
        `Message number ${i} of the chain, with enough words to be a post of its own.`,
        '',
      ].join('\n'),
    );
  }
  writeFileSync(path, parts.join('\n'));
}

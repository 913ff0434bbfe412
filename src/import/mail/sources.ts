// Where messages come from: a directory of message files (one RFC 822 message per file, searched
// recursively, Maildir works too) or an mbox file (messages separated by "From " lines, mboxrd
// ">From " unescaped). Files that do not look like mail (e.g. JSON next to the messages) are skipped.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type RawMessage = { source: string; raw: Buffer };
export type ReadResult = { messages: RawMessage[]; skippedFiles: string[] };

/** First line is a header ("Name: value") or an mbox "From " line. */
function looksLikeMail(buf: Buffer): boolean {
  const head = buf.subarray(0, 512).toString('latin1').replace(/^\s+/, '');
  return /^From \S/.test(head) || /^[A-Za-z][A-Za-z0-9-]*:([ \t]|\r?\n[ \t])/.test(head);
}

function isMbox(buf: Buffer): boolean {
  return buf.subarray(0, 5).toString('latin1') === 'From ';
}

export function splitMbox(buf: Buffer): Buffer[] {
  const text = buf.toString('latin1');
  const starts: number[] = [];
  // A separator is a whole envelope line "From <sender> <asctime date>", at the start or after a
  // blank line; a body line that merely starts with "From " is not one.
  const re = /(^|\n\n)From \S+ +\w{3} \w{3} +\d{1,2} \d{1,2}:\d{2}(?::\d{2})? [^\n]*\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    starts.push(m.index + m[1]!.length);
    re.lastIndex = m.index + m[0].length;
  }
  if (starts.length === 0) return [buf];
  return starts.map((start, i) => {
    const chunk = text.slice(start, starts[i + 1] ?? text.length).replace(/\n$/, '');
    // mboxrd: a body line ">From " (any number of ">") was escaped by adding one ">".
    return Buffer.from(chunk.replace(/\n>(>*From )/g, '\n$1'), 'latin1');
  });
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
}

/** Reads every message under the given paths (directories or mbox/message files). */
export async function readMessages(paths: string[]): Promise<ReadResult> {
  const messages: RawMessage[] = [];
  const skippedFiles: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new Error(`Cannot read "${path}": no such file or directory.`);
    }
    const files: string[] = [];
    if (info.isDirectory()) await walk(path, files);
    else files.push(path);
    for (const file of files) {
      let buf: Buffer;
      try {
        buf = await readFile(file);
      } catch (err) {
        throw new Error(`Cannot read "${file}": ${(err as Error).message}`);
      }
      if (!looksLikeMail(buf)) {
        skippedFiles.push(file);
        continue;
      }
      const chunks = isMbox(buf) ? splitMbox(buf) : [buf];
      // A single message file may also start with a "From " envelope line: one chunk, same parser.
      chunks.forEach((raw, i) =>
        messages.push({ source: chunks.length > 1 ? `${file}#${i + 1}` : file, raw }),
      );
    }
  }
  return { messages, skippedFiles };
}

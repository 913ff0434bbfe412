// The body of a REST upload route (upload_file): multipart/form-data (the file in a `file` field,
// other fields as strings), or the raw bytes of the file in any other type with its name in the
// `filename` query parameter; a JSON body is read as on every other route (it cannot carry a file,
// so the schema refuses it by field). Such a route's size bound is the upload limit, not the
// REST body limit: it alone takes bodies that large. A file over the upload limit is 413, as a body
// over any limit is, whether or not the envelope around it fitted.
import type { Context } from 'hono';
import { bytesText } from '../../domain/writes/upload-file.ts';
import { malformed, problem, type Problem } from './problem.ts';

export const isJson = (type: string): boolean => /^application\/([\w.+-]*\+)?json\b/i.test(type);

/** Room for a multipart envelope and its other fields beside the file itself. */
export const UPLOAD_ENVELOPE_BYTES = 64 * 1024;

/** 413 for a file larger than `maxBytes`, saying by how much; undefined when it fits. */
function oversized(file: unknown, maxBytes: number): Problem | undefined {
  if (!(file instanceof File) || file.size <= maxBytes) return undefined;
  const name = file.name.trim() || 'file';
  return problem(
    413,
    'invalid_argument',
    `"${name}" is ${bytesText(file.size)}: a file may be at most ${bytesText(maxBytes)}.`,
  );
}

export async function uploadBody(
  c: Context,
  maxBytes: number,
): Promise<{ ok: true; body: unknown } | { ok: false; problem: Problem }> {
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data\b/i.test(type)) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      return { ok: false, problem: malformed('The multipart body could not be read.') };
    }
    const body: Record<string, unknown> = Object.create(null);
    for (const [name, value] of Object.entries(form)) body[name] = value;
    const tooBig = oversized(Array.isArray(body.file) ? body.file[0] : body.file, maxBytes);
    return tooBig ? { ok: false, problem: tooBig } : { ok: true, body };
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (!bytes.byteLength) return { ok: true, body: undefined };
  const name = new URL(c.req.url).searchParams.get('filename') ?? '';
  const file = new File([bytes], name, { type: type.split(';')[0] ?? '' });
  const tooBig = oversized(file, maxBytes);
  return tooBig ? { ok: false, problem: tooBig } : { ok: true, body: { file } };
}

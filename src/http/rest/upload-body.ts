// The body of a REST upload route (upload_file): multipart/form-data (the file in a `file` field,
// other fields as strings), or the raw bytes of the file in any other type with its name in the
// `filename` query parameter; a JSON body is read as on every other route (it cannot carry a file,
// so the schema refuses it by field). Such a route's size bound is the upload limit, not the
// REST body limit: it alone takes bodies that large.
import type { Context } from 'hono';
import { malformed, type Problem } from './problem.ts';

export const isJson = (type: string): boolean => /^application\/([\w.+-]*\+)?json\b/i.test(type);

/** Room for a multipart envelope and its other fields beside the file itself. */
export const UPLOAD_ENVELOPE_BYTES = 64 * 1024;

export async function uploadBody(
  c: Context,
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
    return { ok: true, body };
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (!bytes.byteLength) return { ok: true, body: undefined };
  const name = new URL(c.req.url).searchParams.get('filename') ?? '';
  return {
    ok: true,
    body: { file: new File([bytes], name, { type: type.split(';')[0] ?? '' }) },
  };
}

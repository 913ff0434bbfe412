// Files attached to posts on the web: the composer's "Attach" (a multipart form posts the file with
// the text; the file is uploaded through upload_file and its Markdown, `![name](url)` for an image
// or `[name](url)`, is added to the text, which comes back in the composer), the composer script's
// `POST /upload` (a file dropped on or pasted into the text: JSON with its Markdown), and serving an upload
// at `/uploads/<id>/<name>` to those who may read the community, with headers that keep a file from
// ever running as a page: its detected type, nosniff, a sandboxing Content-Security-Policy, inline
// only for images (everything else downloads), cached for good (an upload never changes). A file
// is read by whoever may read its community: a signed-in person, an agent or a member by their key.
import type { Hono } from 'hono';
import { anonymous } from '../../domain/actor.ts';
import { bytesText } from '../../domain/writes/upload-file.ts';
import { ALLOWED_KINDS } from '../../domain/uploads/content-check.ts';
import { uploadFile } from '../../operations/uploads.ts';
import { call, type Notice, type Web, type WebDeps, type WebEnv } from '../context.ts';
import { text, type FormData } from '../forms.ts';
import { barePage } from '../html.ts';
import { html, markupOf, type Html } from '../template.ts';

export const UPLOAD_CSP = "default-src 'none'; sandbox";

/** The file chosen in the form's file input, if one was. */
function chosenFile(form: FormData): File | undefined {
  const v = Object.hasOwn(form, 'file') ? form.file : undefined;
  const f = Array.isArray(v) ? v[0] : v;
  return f instanceof File && (f.size > 0 || f.name !== '') ? f : undefined;
}

/** The composer's file field: a visible label, what is taken, and the Attach button. */
export function attachField(deps: WebDeps): Html {
  const { maxBytes } = deps.services.uploads.limits();
  return html`<div class="field attach"><label for="f-file">Attach a file (optional)</label><input type="file" id="f-file" name="file" aria-describedby="f-file-hint" accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/markdown,.md,application/zip"><button type="submit" name="action" value="attach" class="secondary" formnovalidate>Attach</button><p class="hint" id="f-file-hint">${ALLOWED_KINDS}, up to ${bytesText(maxBytes)}. Attach adds a link to it to your text (images show in the post).</p></div>`;
}

/**
 * Uploads the form's chosen file and adds its Markdown to the form's `body`; the notice to show.
 * Undefined when no file was chosen (nothing happens).
 */
export async function attachChosen(
  deps: WebDeps,
  web: Web,
  form: FormData,
): Promise<Notice | undefined> {
  const file = chosenFile(form);
  delete form.file;
  if (!file) return undefined;
  const got = await call(deps, web, uploadFile, { file });
  if (!got.ok) return { kind: 'error', text: `The file was not attached: ${got.message}` };
  const body = text(form, 'body').trimEnd();
  form.body = `${body ? `${body}\n\n` : ''}${got.value.upload.markdown}\n`;
  return {
    kind: 'ok',
    text: `"${got.value.upload.filename}" is attached: a link to it is at the end of your text.`,
  };
}

/** The post HTML with its upload URLs in the request's own form (`/c/<slug>/uploads/…`). */
export function localUploads(deps: WebDeps, web: Web, markup: string): string {
  if (web.where.kind !== 'community' || !web.where.base) return markup;
  const canonical = `${deps.canonicalOrigin(web.where.community.slug)}/uploads/`;
  return markup.split(`"${canonical}`).join(`"${web.where.base}/uploads/`);
}

export function uploadRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  // The composer script's upload: a multipart form with the file (and the form token, checked by
  // every POST) → `{markdown, filename}`, or `{error}` saying why it was not taken.
  app.post('/upload', async (c) => {
    const web = c.get('web');
    if (web.where.kind !== 'community') return c.json({ error: 'Not found.' }, 404);
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const file = chosenFile(form);
    if (!file) return c.json({ error: 'Choose a file to upload.' }, 400);
    const got = await call(deps, web, uploadFile, { file });
    if (!got.ok) return c.json({ error: `The file was not attached: ${got.message}` }, 400);
    return c.json({ markdown: got.value.upload.markdown, filename: got.value.upload.filename });
  });

  app.get('/uploads/:id/:name', async (c) => {
    const web = c.get('web');
    const missing = () =>
      c.html(
        markupOf(barePage('Not found', 'There is nothing at this address, or it is not public.')),
        404,
      );
    if (web.where.kind !== 'community') return missing();
    // A file is read as the request's credential reads the community: a signed-in person, or a
    // key (an agent's, a member's user key) as on REST and MCP, where posts link their files.
    const community = web.where.community;
    const reader =
      web.person ?? (deps.credentialActor ? await deps.credentialActor(c, community) : anonymous);
    const found = await deps.services.uploads.open(
      reader,
      community,
      c.req.param('id'),
      c.req.param('name'),
    );
    if (!found) return missing();
    const { upload, inline } = found;
    const priv = web.where.community.visibility !== 'public';
    return c.body(found.body, 200, {
      'content-type': upload.contentType,
      'content-length': String(upload.byteSize),
      'x-content-type-options': 'nosniff',
      'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${upload.filename}"`,
      'content-security-policy': UPLOAD_CSP,
      // A private community's files are for its readers: never kept by a shared cache, nor
      // embedded by another site.
      'cache-control': `${priv ? 'private' : 'public'}, max-age=31536000, immutable`,
      ...(priv ? { 'cross-origin-resource-policy': 'same-site' } : {}),
      etag: `"${upload.sha256}"`,
    });
  });
}

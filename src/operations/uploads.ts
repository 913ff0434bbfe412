// Uploading a file to attach to posts (src/domain/uploads/): the bytes are checked by their content
// (images, PDF, text, zip), kept per community within its quota, and served at the answer's URL.
// Offered on the web (the composer's file input) and REST (multipart or a raw body); not an MCP
// tool: MCP carries JSON, and agents link to what they post instead.
import { z } from 'zod';
import { uploadName } from '../domain/fields.ts';
import type { UploadView } from '../domain/uploads/service.ts';
import { defineOperation } from './operation.ts';

const uploadOut = z.object({
  id: z.string(),
  url: z.string().describe('Where it is served (readers of the community only, if private).'),
  filename: z.string().describe('The safe name kept (ending in the extension of its type).'),
  content_type: z.string().describe('The type detected from the content.'),
  byte_size: z.number().int(),
  sha256: z.string(),
  width: z.number().int().nullable().describe("An image's width in pixels; null otherwise."),
  height: z.number().int().nullable(),
  created_at: z.string(),
  markdown: z.string().describe('What to put in a post to show it: ![name](url) or [name](url).'),
});

export const presentUpload = (u: UploadView): z.output<typeof uploadOut> => ({
  id: u.id,
  url: u.url,
  filename: u.filename,
  content_type: u.contentType,
  byte_size: u.byteSize,
  sha256: u.sha256,
  width: u.width,
  height: u.height,
  created_at: u.createdAt,
  markdown: u.markdown,
});

export const uploadFile = defineOperation({
  name: 'upload_file',
  server: 'community',
  title: 'Upload a file',
  description:
    "Keeps a file to attach to posts: a PNG, JPEG, GIF or WebP image, a PDF, plain text or Markdown, or a zip archive, decided by its content (a file whose name claims another kind is refused). Send it as multipart/form-data (field `file`), or as the raw body with the name in the `filename` query parameter. Each file has a size limit and the community a quota. Put the answer's `markdown` in a post to show it.",
  input: z.strictObject({
    file: z.file().describe('The file.'),
    filename: uploadName.optional().describe("The name to keep (default: the file's own name)."),
  }),
  output: z.object({ upload: uploadOut }),
  credential: 'community',
  scope: 'post:create',
  write: true,
  run: async (ctx, input) => {
    const upload = await ctx.services.uploads.upload(ctx.actor, ctx.community, input, {
      ip: ctx.ip,
      audit: ctx.audit,
    });
    return { upload: presentUpload(upload) };
  },
});

export const UPLOAD_OPERATIONS = [uploadFile];

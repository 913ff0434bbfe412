// What an upload is, decided by its bytes, never by its name or the type the client claimed: the
// signature (file-type) names images, PDFs and zip archives; text is valid UTF-8 without control
// characters that does not open as markup. Only these are taken:
//   PNG, JPEG, GIF, WebP images · PDF · plain text and Markdown · zip archives
// A name that claims one of these kinds but whose bytes are another (an HTML page named "x.png")
// is refused, saying what the content is; so is anything else. Images also get their pixel size
// (image-size), and the stored name is a safe one ending in the extension of the detected type.
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { DomainError } from '../errors.ts';

export type Detected = {
  contentType: string;
  /** The extension the stored name ends with. */
  ext: string;
  image: boolean;
  width: number | null;
  height: number | null;
};

type Kind = { contentType: string; ext: string; label: string; image: boolean };

/** The allowed kinds, by the extension file-type reports (text is detected apart). */
const BINARY: Record<string, Kind> = {
  png: { contentType: 'image/png', ext: 'png', label: 'a PNG image', image: true },
  jpg: { contentType: 'image/jpeg', ext: 'jpg', label: 'a JPEG image', image: true },
  gif: { contentType: 'image/gif', ext: 'gif', label: 'a GIF image', image: true },
  webp: { contentType: 'image/webp', ext: 'webp', label: 'a WebP image', image: true },
  pdf: { contentType: 'application/pdf', ext: 'pdf', label: 'a PDF document', image: false },
  zip: { contentType: 'application/zip', ext: 'zip', label: 'a zip archive', image: false },
};
const TEXT: Kind = {
  contentType: 'text/plain; charset=utf-8',
  ext: 'txt',
  label: 'plain text',
  image: false,
};
const MARKDOWN: Kind = {
  contentType: 'text/markdown; charset=utf-8',
  ext: 'md',
  label: 'Markdown text',
  image: false,
};

/** What a name's extension claims, for the extensions of the allowed kinds. */
const CLAIMED: Record<string, Kind> = {
  ...BINARY,
  jpeg: BINARY.jpg!,
  txt: TEXT,
  text: TEXT,
  md: MARKDOWN,
  markdown: MARKDOWN,
};

export const ALLOWED_KINDS =
  'PNG, JPEG, GIF or WebP images, PDF documents, plain text or Markdown, and zip archives';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Markup a browser could run if it ever rendered the file: HTML, SVG or other XML. */
function looksLikeMarkup(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  return /^<(!doctype|html|head|body|script|svg|\?xml|iframe|meta|style|!--|[a-z]+[\s>/])/.test(
    head,
  );
}

/** The bytes as text when they are UTF-8 without control characters (tab, newlines, form feed aside). */
function asText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

function refuse(message: string): never {
  throw new DomainError('invalid_argument', message);
}

/** The upload's kind from its bytes, checked against what its name claims; refused otherwise. */
export async function detectUpload(name: string, bytes: Uint8Array): Promise<Detected> {
  if (bytes.byteLength === 0) refuse(`"${name}" is empty: choose a file with something in it.`);
  const claimed = CLAIMED[extensionOf(name)];
  const found = await fileTypeFromBuffer(bytes);
  let kind: Kind | undefined;
  let what: string;
  if (found) {
    kind = BINARY[found.ext];
    what = kind ? kind.label : `a ${found.ext.toUpperCase()} file (${found.mime})`;
  } else {
    const text = asText(bytes);
    if (text === undefined) what = 'binary data of no kind that is taken';
    else if (looksLikeMarkup(text)) what = 'HTML or other markup';
    else {
      kind = claimed === MARKDOWN ? MARKDOWN : TEXT;
      what = kind.label;
    }
  }
  if (claimed && (!kind || claimed.contentType.split(';')[0] !== kind.contentType.split(';')[0])) {
    const textual = claimed === TEXT || claimed === MARKDOWN;
    if (!(textual && kind && (kind === TEXT || kind === MARKDOWN)))
      refuse(
        `"${name}" is named as ${claimed.label}, but its content is ${what}: the file is refused. Only ${ALLOWED_KINDS} may be uploaded, and a file's name must match what it is.`,
      );
  }
  if (!kind)
    refuse(`"${name}" is ${what}, which is not taken here. Only ${ALLOWED_KINDS} may be uploaded.`);
  if (!kind.image) return { ...kind, width: null, height: null };
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return refuse(
      `"${name}" looks like ${kind.label} but could not be read as one: it may be damaged.`,
    );
  }
  // EXIF orientations 5 to 8 turn the picture a quarter: it shows with its sides swapped.
  const turned = (size.orientation ?? 1) >= 5;
  return {
    ...kind,
    width: turned ? size.height : size.width,
    height: turned ? size.width : size.height,
  };
}

/**
 * A name safe in a URL path and a Content-Disposition header: letters, digits, "-", "_" and "."
 * (anything else becomes "-"), at most 100 characters, ending in the detected type's extension.
 */
export function safeName(name: string, ext: string): string {
  // Only the last part of a path some clients send, without its own extension.
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\.[A-Za-z0-9]{1,10}$/, '');
  const clean = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/[-.]{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100 - ext.length - 1)
    .replace(/[-.]+$/, '');
  return `${clean || 'file'}.${ext}`;
}

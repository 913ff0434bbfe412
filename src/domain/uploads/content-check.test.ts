// The upload check by content: each allowed kind is recognised from its bytes and named by it; a
// name that claims another kind, markup, other binary formats and empty files are refused with a
// message naming what the content is; stored names are safe and end in the detected extension.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { png } from '../../../test/helpers/png.ts';
import { isDomainError } from '../errors.ts';
import { detectUpload, safeName } from './content-check.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const refused = async (name: string, content: Uint8Array, message: RegExp) =>
  assert.rejects(detectUpload(name, content), (err) => {
    assert.ok(isDomainError(err) && err.code === 'invalid_argument');
    assert.match(err.message, message);
    return true;
  });

/** A one-entry zip archive (stored, no compression flags beyond deflate). */
function zip(): Uint8Array {
  const data = deflateRawSync(Buffer.from('hello'));
  const name = Buffer.from('a.txt');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(5, 22);
  local.writeUInt16LE(name.length, 26);
  return new Uint8Array(Buffer.concat([local, name, data]));
}

test('each allowed kind is taken by its content, whatever its name says or lacks', async () => {
  const image = await detectUpload('shot', png(12, 7));
  assert.deepEqual(image, {
    contentType: 'image/png',
    ext: 'png',
    label: 'a PNG image',
    image: true,
    width: 12,
    height: 7,
  });
  assert.equal(
    (await detectUpload('notes.md', bytes('# Title\n\nText'))).contentType,
    'text/markdown; charset=utf-8',
  );
  assert.equal(
    (await detectUpload('notes', bytes('plain words'))).contentType,
    'text/plain; charset=utf-8',
  );
  assert.equal(
    (await detectUpload('paper.pdf', bytes('%PDF-1.7\n%%EOF'))).contentType,
    'application/pdf',
  );
  assert.equal((await detectUpload('bundle.zip', zip())).contentType, 'application/zip');
});

test('a disguised or unsupported file is refused, naming what its content is', async () => {
  const html = bytes('<!DOCTYPE html><html><script>alert(1)</script></html>');
  await refused('photo.png', html, /named as a PNG image, but its content is HTML or other markup/);
  await refused('page.html', html, /"page\.html" is HTML or other markup, which is not taken here/);
  await refused('logo.svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), /markup/);
  await refused('doc.pdf', png(2, 2), /named as a PDF document, but its content is a PNG image/);
  await refused(
    'tool.exe',
    new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]),
    /not taken here/,
  );
  await refused(
    'blob.bin',
    new Uint8Array([0, 1, 2, 3, 0xfe, 0xff]),
    /binary data of no kind that is taken/,
  );
  await refused('empty.txt', new Uint8Array(), /is empty/);
  await refused(
    'broken.png',
    png(3, 3).slice(0, 20),
    /could not be read as one|but its content is/,
  );
});

test('a stored name is safe and ends in the extension of the detected kind', () => {
  assert.equal(safeName('Sales chart (final).PNG', 'png'), 'Sales-chart-final.png');
  assert.equal(safeName('../../etc/passwd', 'txt'), 'passwd.txt');
  assert.equal(safeName('C:\\Users\\me\\plan.v2.md', 'md'), 'plan.v2.md');
  assert.equal(safeName('résumé.pdf', 'pdf'), 'resume.pdf');
  assert.equal(safeName('"><script>.png', 'png'), 'script.png');
  assert.equal(safeName('...', 'zip'), 'file.zip');
  assert.ok(safeName('x'.repeat(300), 'md').length <= 100);
});

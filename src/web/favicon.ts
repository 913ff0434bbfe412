// The site icon: a 32×32 "H" on Hamlet's blue, drawn once at start-up as a PNG and wrapped in the
// ICO container browsers ask for at /favicon.ico (an ICO may hold a PNG image since Windows Vista;
// every current browser reads it).
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 32;
const BLUE = [0x1d, 0x4e, 0xd8];
const WHITE = [0xff, 0xff, 0xff];

/** Whether pixel (x, y) belongs to the letter: two stems and a crossbar. */
function inLetter(x: number, y: number): boolean {
  const stem = (x >= 8 && x <= 12) || (x >= 19 && x <= 23);
  return y >= 7 && y <= 24 && (stem || (x > 12 && x < 19 && y >= 14 && y <= 17));
}

/** Whether pixel (x, y) lies outside the square's rounded corners (radius 6). */
function outsideCorner(x: number, y: number): boolean {
  const r = 6;
  const cx = x < r ? r : x >= SIZE - r ? SIZE - r - 1 : x;
  const cy = y < r ? r : y >= SIZE - r ? SIZE - r - 1 : y;
  return (x - cx) ** 2 + (y - cy) ** 2 > r * r;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < SIZE; y++) {
    rows.push(0); // filter type: none
    for (let x = 0; x < SIZE; x++) {
      if (outsideCorner(x, y)) rows.push(0, 0, 0, 0);
      else rows.push(...(inLetter(x, y) ? WHITE : BLUE), 0xff);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function ico(image: Buffer): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.set([SIZE, SIZE, 0, 0], 6); // width, height, no palette, reserved
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18); // the image follows this header
  return Buffer.concat([head, image]);
}

export const FAVICON_ICO: Buffer = ico(png());

// A node:test reporter that writes, when the run ends, how long each test file ran (from the runner
// taking it off the queue to its last event, in ms) as one JSON object: scripts/test.ts starts the
// longest files first.
// Plain JavaScript: node:test loads reporters before the TypeScript loader is in place.

/** @param {AsyncIterable<{ type: string, data?: { file?: string, name?: string } }>} source */
export default async function* durations(source) {
  /** @type {Map<string, { first: number, last: number }>} */
  const seen = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const span = seen.get(file);
    if (span) span.last = now;
    else if (event.type === 'test:dequeue' && event.data?.name === file)
      seen.set(file, { first: now, last: now });
  }
  /** @type {Record<string, number>} */
  const out = {};
  for (const [file, { first, last }] of seen) out[file] = last - first;
  yield `${JSON.stringify(out)}\n`;
}

// Preloaded into a measured server (node --expose-gc --require bench/lib/gc-on-signal.cjs): on
// SIGUSR2 it collects garbage fully and writes process.memoryUsage() as JSON to the file named by
// BENCH_MEMORY_FILE, so a bench can tell live memory from garbage not yet collected.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  globalThis.gc();
  writeFileSync(process.env.BENCH_MEMORY_FILE, JSON.stringify(process.memoryUsage()));
});

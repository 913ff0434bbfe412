// Progress output for long imports, on stderr: a redrawn bar on a terminal, plain lines otherwise
// (logs and CI), at most one line per phase step of 10%.
import type { ImportProgress } from './mail/importer.ts';

export function progressReporter(
  stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
): (p: ImportProgress) => void {
  const tty = stream.isTTY === true;
  let lastLine = '';
  let lastDecile = -1;
  let lastPhase = '';
  return (p) => {
    const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
    const percent = Math.floor(ratio * 100);
    if (tty) {
      const width = 30;
      const filled = Math.round(ratio * width);
      const line = `${p.phase.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${p.done}/${p.total}`;
      if (line !== lastLine) stream.write(`\r${line}`);
      lastLine = line;
      if (p.phase === 'importing' && p.done >= p.total) stream.write('\n');
      return;
    }
    const decile = Math.floor(percent / 10);
    if (p.phase !== lastPhase || decile !== lastDecile) {
      stream.write(`${p.phase}: ${p.done}/${p.total} (${percent}%)\n`);
      lastPhase = p.phase;
      lastDecile = decile;
    }
  };
}

// CPU time of any process of this machine, read from /proc/<pid>/stat (Linux): user + system time
// in microseconds, at the kernel's clock-tick resolution (10 ms at the usual 100 Hz). Works for a
// process the bench did not write, such as `hamlet serve`, which has no IPC channel to ask.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    let n = NaN;
    try {
      n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      // getconf missing: Linux's USER_HZ is 100 on every common build.
    }
    ticksPerSecond = Number.isFinite(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/** User + system CPU µs the process has used so far (its threads included, its children not). */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  // Field 3 (state) comes first; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`cannot read the CPU time of process ${pid}`);
  return (ticks * 1_000_000) / clockTicks();
}

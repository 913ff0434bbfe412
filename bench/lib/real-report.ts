// The tables bench/real-server.ts prints: per case and round, req/s and server CPU per request, each
// as a ratio to the limit measured around that round (the mean of the limit before and after it),
// so a machine that drifts during the run moves both sides of a ratio alike; the spread over rounds
// says how noisy the run was. Then the targets, PASS or MISS, and the profile's top frames.
import { loadavg } from 'node:os';
import { summarizeProfile } from './cpu-profile.ts';
import { failures, type AutocannonResult } from './load.ts';
import type { CaseCount } from './query-count-child.ts';
import type { LimitShape, RealCase } from './real-cases.ts';

export type Measured = {
  result: AutocannonResult;
  /** Whether every answer was compared with the verified one byte for byte (stable answers only). */
  bodyChecked: boolean;
  cpuShare: number;
  cpuPerRequest: number;
  from: number;
  to: number;
};

/** Floors of each era that must reach this share of the limit (by req/s and by CPU per request). */
const FLOOR_TARGET = 0.7;
const FLOOR_CASES = [
  'mcp-2025 ping',
  'mcp-2025 tools/list',
  'mcp-2026 server/discover',
  'mcp-2026 tools/list',
];

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (x: number) => (x < 1 ? '<1' : fmt(x));
const times = (x: number) => `${x.toFixed(2)}×`;
export const load3 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
/** "0.62×" for one value, "0.62× (0.60–0.64)" for the mean of several. */
const spread = (xs: number[]) =>
  xs.length < 2
    ? times(xs[0] ?? NaN)
    : `${times(avg(xs))} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

const queriesText = (c: CaseCount | undefined) =>
  !c ? '–' : c.min === c.max ? String(c.min) : `${fmt(c.mean, 1)} (${c.min}–${c.max})`;

const failedText = (m: Measured[]) => {
  const bad = m.reduce((a, x) => a + failures(x.result), 0);
  if (!bad) return `0${m.every((x) => x.bodyChecked) ? '' : '*'}`;
  const sum = (f: (r: AutocannonResult) => number) => m.reduce((a, x) => a + f(x.result), 0);
  return `${bad} (errors ${sum((r) => r.errors)}, non-2xx ${sum((r) => r.non2xx)}, mismatches ${sum((r) => r.mismatches)})`;
};

/** Prints the engine's table and its targets; returns whether any request failed. */
export function report(
  title: string,
  cases: RealCase[],
  rows: Map<string, Measured[]>,
  limits: Map<LimitShape, Measured[]>,
  counts: CaseCount[],
): boolean {
  let broken = false;
  const rps = (m: Measured) => m.result.requests.average;
  const cpu = (m: Measured) => m.cpuPerRequest;
  /** Ratios of round r of a case: case / mean(limit r, limit r+1), higher is better for both. */
  const ratios = (c: RealCase) =>
    rows.get(c.id)!.map((m, r) => {
      const around = (limits.get(c.limit) ?? []).slice(r, r + 2);
      return { rps: rps(m) / avg(around.map(rps)), cpu: avg(around.map(cpu)) / cpu(m) };
    });
  const out: string[][] = [];
  for (const [shape, ms_] of limits) {
    const all = { rps: avg(ms_.map(rps)), cpu: avg(ms_.map(cpu)) };
    ms_.forEach((m, i) =>
      out.push([
        `limit ${shape} #${i + 1}`,
        fmt(rps(m)),
        times(rps(m) / all.rps),
        fmt(cpu(m), 1),
        times(all.cpu / cpu(m)),
        ms(m.result.latency.p50),
        ms(m.result.latency.p99),
        `${Math.round(m.cpuShare * 100)}%`,
        '–',
        failedText([m]),
      ]),
    );
  }
  const summary = new Map<string, ReturnType<typeof ratios>>();
  for (const c of cases) {
    const m = rows.get(c.id);
    if (!m) continue;
    if (m.some((x) => failures(x.result) > 0)) broken = true;
    const r = ratios(c);
    summary.set(c.id, r);
    out.push([
      c.id,
      fmt(avg(m.map(rps))),
      spread(r.map((x) => x.rps)),
      fmt(avg(m.map(cpu)), 1),
      spread(r.map((x) => x.cpu)),
      ms(avg(m.map((x) => x.result.latency.p50))),
      ms(avg(m.map((x) => x.result.latency.p99))),
      `${Math.round(Math.min(...m.map((x) => x.cpuShare)) * 100)}%`,
      queriesText(counts.find((x) => x.id === c.id)),
      failedText(m),
    ]);
  }
  console.log(`\n${title}, load average now ${load3()}`);
  console.log(
    table(
      [
        'case',
        'req/s',
        '×limit',
        'µs CPU/req',
        '×limit',
        'p50 ms',
        'p99 ms',
        'server CPU',
        'DB statements/req',
        'failed',
      ],
      out,
    ),
  );
  console.log(
    'Ratios: each round against the limit measured before and after it; mean (range over rounds).',
  );
  if ([...rows.values()].some((m) => m.some((x) => !x.bodyChecked)))
    console.log(
      '*: its answers differ from one request to the next, so the run checked their status only (a right answer was verified before).',
    );
  const unsaturated = [...rows]
    .filter(([, m]) => m.some((x) => x.cpuShare < 0.85))
    .map(([id]) => id);
  if (unsaturated.length)
    console.log(
      `note: the server used under 85% of a core for ${unsaturated.join(', ')}: the machine was busy or the load generator was the limit, so req/s understates it; CPU per request is not affected.`,
    );
  for (const id of FLOOR_CASES) {
    const r = summary.get(id);
    if (!r) continue;
    const [byRps, byCpu] = [avg(r.map((x) => x.rps)), avg(r.map((x) => x.cpu))];
    console.log(
      `target ${id} ≥ ${FLOOR_TARGET}× the limit: by req/s ${times(byRps)} ${byRps >= FLOOR_TARGET ? 'PASS' : 'MISS'}, by CPU per request ${times(byCpu)} ${byCpu >= FLOOR_TARGET ? 'PASS' : 'MISS'}`,
    );
  }
  return broken;
}

/** The top functions by self time of the serve profile over each case's measured windows. */
export function profileReport(file: string, rows: Map<string, Measured[]>, root: string): void {
  console.log(`\nCPU profile of serve: ${file}`);
  for (const [id, ms_] of rows) {
    const s = summarizeProfile(
      file,
      ms_.map((m) => ({ fromMicros: m.from, toMicros: m.to })),
      root,
    );
    console.log(
      `\n${id}: top self time (${s.samples} samples, idle excluded); async_hooks frames ${(s.asyncHooksShare * 100).toFixed(1)}%`,
    );
    for (const f of s.top)
      console.log(`  ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
  }
}

/** This checkout against the one of --compare, case by case, round by round (measured back to back). */
export function compareReport(
  other: string,
  rows: Map<string, Measured[]>,
  otherRows: Map<string, Measured[]>,
): void {
  console.log(`\nthis checkout against ${other}, measured back to back (higher: this is faster)`);
  const out: string[][] = [];
  for (const [id, ms_] of rows) {
    const o = otherRows.get(id);
    if (!o) continue;
    const n = Math.min(ms_.length, o.length);
    const r = [...Array(n).keys()];
    out.push([
      id,
      spread(r.map((i) => ms_[i]!.result.requests.average / o[i]!.result.requests.average)),
      fmt(avg(o.map((m) => m.cpuPerRequest)), 1),
      fmt(avg(ms_.map((m) => m.cpuPerRequest)), 1),
      spread(r.map((i) => o[i]!.cpuPerRequest / ms_[i]!.cpuPerRequest)),
    ]);
  }
  console.log(
    table(['case', 'req/s this/other', 'µs CPU/req other', 'this', 'CPU other/this'], out),
  );
}

// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and sums its samples per function, over a
// window of time: the top frames by self time, and how much of it is async_hooks work (the promise
// hooks AsyncLocalStorage turns on for every promise on Node 20). The profile's timestamps are
// microseconds of the monotonic clock, the same as process.hrtime here, so a window measured by
// the bench selects the samples taken during it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type CpuProfile = {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

export type Frame = { name: string; where: string; share: number };
export type ProfileSummary = { samples: number; top: Frame[]; asyncHooksShare: number };

/**
 * Where a frame's code lives, short: node internals and dependencies with their line, the
 * repository's files by path only (tsx compiles them, so the profile's lines are not the source's).
 */
function where(frame: CallFrame, root: string): string {
  if (!frame.url) return '';
  const url = frame.url.replace(/^file:\/\//, '');
  if (url.startsWith(root) && !url.includes('/node_modules/')) return url.slice(root.length);
  const line = frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : '';
  return `${url.replace(/^.*node_modules\//, 'node_modules/')}${line}`;
}

/** Frames of the async_hooks machinery: promise hooks, context propagation, AsyncLocalStorage. */
function isAsyncHooks(frame: CallFrame): boolean {
  return (
    /node:internal\/(async_hooks|async_local_storage|promise_hooks)/.test(frame.url) ||
    /^(promiseInitHook|promiseInitHookWithDestroyTracking|promiseBeforeHook|promiseAfterHook|promiseResolveHook|_propagate)$/.test(
      frame.functionName,
    )
  );
}

/**
 * The main thread's profile among those `dir` got after `since` (ms since the epoch), named by
 * --cpu-prof `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`: thread 0 is the main thread
 * (tsx's module hooks run on a thread of their own, which writes a profile too).
 */
export function mainThreadProfile(dir: string, since: number): string | undefined {
  const files = readdirSync(dir)
    .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => ({ path: join(dir, f), at: statSync(join(dir, f)).mtimeMs }))
    .filter((f) => f.at >= since)
    .sort((a, b) => b.at - a.at);
  return files[0]?.path;
}

/**
 * Self time per function (by share of the non-idle samples) within the windows (`fromMicros` to
 * `toMicros` of the monotonic clock); `root` is cut from file paths.
 */
export function summarizeProfile(
  file: string,
  windows: { fromMicros: number; toMicros: number }[],
  root: string,
  top = 15,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, { name: string; where: string; n: number }>();
  let t = profile.startTime;
  let counted = 0;
  let asyncHooks = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (!windows.some((w) => t >= w.fromMicros && t <= w.toMicros)) continue;
    const frame = frames.get(profile.samples[i]!)!;
    if (frame.functionName === '(idle)') continue;
    counted++;
    if (isAsyncHooks(frame)) asyncHooks++;
    const at = where(frame, root);
    const key = `${frame.functionName}@${at}`;
    const entry = byFunction.get(key) ?? {
      name: frame.functionName || '(anonymous)',
      where: at,
      n: 0,
    };
    entry.n++;
    byFunction.set(key, entry);
  }
  return {
    samples: counted,
    top: [...byFunction.values()]
      .sort((a, b) => b.n - a.n)
      .slice(0, top)
      .map((e) => ({ name: e.name, where: e.where, share: e.n / Math.max(1, counted) })),
    asyncHooksShare: asyncHooks / Math.max(1, counted),
  };
}

// How long each test file ran in the last full run, kept beside the template databases, so that
// scripts/test.ts can start the longest files first (a long file started last runs on alone).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CACHE as DIR, ROOT } from './build-cache.ts';

const FILE = join(DIR, 'durations.json');

/** The reporter to add to `node --test`, and the file it writes to. */
export const DURATIONS_REPORTER = join(ROOT, 'test/helpers/durations-reporter.mjs');
export const DURATIONS_OUTPUT = join(DIR, `durations.${process.pid}.json`);

/** Milliseconds per test file (paths relative to the repository), from the last run; {} if none. */
export function loadDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export function prepareDurations(): void {
  mkdirSync(DIR, { recursive: true });
}

/**
 * Merges this run's figures (the reporter's output file) into the kept ones; `compiled`: the root
 * of the compiled copy the files ran from, whose .js names stand for the checkout's .ts files.
 */
export function saveDurations(previous: Record<string, number>, compiled?: string): void {
  let run: Record<string, number>;
  try {
    run = JSON.parse(readFileSync(DURATIONS_OUTPUT, 'utf8')) as Record<string, number>;
  } catch {
    return; // the run broke before the reporter wrote anything: keep what we had
  }
  const merged = { ...previous };
  for (const [file, ms] of Object.entries(run)) {
    const name = compiled ? relative(compiled, file).replace(/\.js$/, '.ts') : relative(ROOT, file);
    merged[name] = ms;
  }
  writeFileSync(`${FILE}.tmp`, JSON.stringify(merged, null, 1));
  renameSync(`${FILE}.tmp`, FILE);
}

// Every HAMLET_* variable in the environment must be one Hamlet reads: a misspelled one
// (HAMLET_SIGNUPS=closed) would otherwise be ignored and leave its setting at the default. Each
// unknown one is named, with the closest known name when one is close.

/**
 * Variables of Hamlet's own tooling (the test command, the throwaway PostgreSQL script, the
 * conformance and fuzz suites), never configuration of a server: they may be in the environment a
 * server inherits, and are not mistakes.
 */
export const TOOLING_VARIABLES: ReadonlySet<string> = new Set([
  'HAMLET_TEST_PG_PORT',
  'HAMLET_TEST_ARTIFACTS',
  'HAMLET_TEST_SCREENSHOTS',
  'HAMLET_SKIP_CONFORMANCE',
  'HAMLET_CONFORMANCE_AUTH',
  'HAMLET_FUZZ_CASES',
  'HAMLET_FUZZ_SEED',
  'HAMLET_TEST_TEMPLATE_DIR',
  'HAMLET_TEST_CLI',
  'HAMLET_TEST_COMPILED',
  'HAMLET_TEST_CONCURRENCY',
  'HAMLET_CONFORMANCE_PARALLEL',
  'HAMLET_TEST_LEAN',
]);

/**
 * Settings without the prefix that a near miss would leave at their default (DATABSE_URL: Hamlet
 * would serve an empty SQLite file). Short ones (PORT, HOST) are left out: too many real variables
 * are a few edits from them.
 */
const UNPREFIXED_CHECKED = ['DATABASE_URL'];

/**
 * One problem per unknown HAMLET_* variable set in `env` (in any case: environment names are
 * case-sensitive, so `hamlet_signup` is not HAMLET_SIGNUP), and per near miss of DATABASE_URL,
 * e.g. "…: did you mean HAMLET_SIGNUP?".
 */
export function unknownVariables(
  env: Record<string, string | undefined>,
  known: readonly string[],
): string[] {
  const names = known.filter((k) => k.startsWith('HAMLET_'));
  const problems: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (env[name] === undefined) continue;
    const nearMiss = nearMissOf(name, known);
    if (nearMiss) {
      problems.push(`${name} is not a Hamlet setting: did you mean ${nearMiss}?`);
      continue;
    }
    if (!name.startsWith('HAMLET_')) continue;
    if (names.includes(name) || TOOLING_VARIABLES.has(name)) continue;
    const closest = nearest(name, names);
    problems.push(
      closest
        ? `${name} is not a Hamlet setting: did you mean ${closest}?`
        : `${name} is not a Hamlet setting (the README's Configuration table lists them); unset it`,
    );
  }
  return problems;
}

/** A setting `name` misses by case (hamlet_signup) or, for DATABASE_URL, by a typo (DATABSE_URL). */
function nearMissOf(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const upper = name.toUpperCase();
  if (upper.startsWith('HAMLET_') && !name.startsWith('HAMLET_'))
    return known.includes(upper)
      ? upper
      : (nearest(
          upper,
          known.filter((k) => k.startsWith('HAMLET_')),
        ) ?? undefined);
  for (const setting of UNPREFIXED_CHECKED)
    if (upper === setting || editDistance(upper, setting) <= 2) return setting;
  return undefined;
}

/** The known name fewest edits away, if it is close enough to be what was meant. */
function nearest(name: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // A few edits of the part after the prefix: a typo, a plural, a dropped underscore.
  const allowed = Math.max(2, Math.floor((name.length - 'HAMLET_'.length) / 4));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** Levenshtein distance (insertions, deletions and substitutions each cost one). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

// What is wrong with the variables themselves, before their values are parsed: an unknown or
// misspelt name (./unknown-variables.ts), and a setting that has a default for a local run but must
// be given in production.
import { unknownVariables } from './unknown-variables.ts';

/** Every problem of the names in `env` (`known`: the settings' names). */
export function settingProblems(
  env: Record<string, string | undefined>,
  known: readonly string[],
): string[] {
  return [...unknownVariables(env, known), ...databaseRequired(env)];
}

/**
 * In production (NODE_ENV=production, or a public origin) a missing DATABASE_URL is a mistake, not
 * a wish for ./data/hamlet.db: an empty file there would serve with /readyz 200. `npm start` and a
 * local `hamlet serve` keep the default.
 */
export function databaseRequired(env: Record<string, string | undefined>): string[] {
  if (env.DATABASE_URL !== undefined) return [];
  const why =
    env.NODE_ENV === 'production'
      ? 'NODE_ENV=production'
      : env.HAMLET_PUBLIC_ORIGIN !== undefined
        ? 'HAMLET_PUBLIC_ORIGIN is set'
        : undefined;
  if (!why) return [];
  return [
    `DATABASE_URL is not set (${why}): set it to the database to serve, e.g. DATABASE_URL=sqlite:/var/lib/hamlet/hamlet.db or postgres://hamlet:…@db:5432/hamlet (the default ./data/hamlet.db is for local runs only)`,
  ];
}

// Bench settings from `--name=value` arguments (a bare `--name` is `--name=true`), then
// MCP_BENCH_<NAME> environment variables, then defaults. Unknown arguments are refused so a typo
// cannot silently run the default.

export type OptionSpec = Record<string, { default: string; help: string }>;

export function readOptions<S extends OptionSpec>(
  spec: S,
  argv = process.argv.slice(2),
  env = process.env,
): Record<keyof S, string> {
  const out = {} as Record<keyof S, string>;
  for (const key of Object.keys(spec) as (keyof S & string)[]) {
    out[key] = env[`MCP_BENCH_${key.toUpperCase()}`] ?? spec[key]!.default;
  }
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') {
      console.log(
        Object.entries(spec)
          .map(([k, v]) => `  --${k}=<${v.default}>  (MCP_BENCH_${k.toUpperCase()})  ${v.help}`)
          .join('\n'),
      );
      process.exit(0);
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || !(m[1]! in spec)) throw new Error(`Unknown argument ${arg}; try --help.`);
    out[m[1] as keyof S] = m[2] ?? 'true';
  }
  return out;
}

export function positiveNumber(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`${name} must be a positive number, got "${value}".`);
  return n;
}

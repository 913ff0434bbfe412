// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) for both protocol eras
// the endpoint speaks, 2025-11-25 (initialize, sessions) and 2026-07-28 (per-request `_meta`):
//  1. every server scenario of each era (`--suite all --spec-version <era>`) against the fixture
//     surface served by Hamlet's real MCP stack (test/conformance), and
//  2. the scenarios that need none of the suite's diagnostic tools against the real community and
//     network servers of a Hamlet started on the demo data (the community's with its agent key).
//  3. the extension scenarios (Skills, SEP-2640; Tasks, SEP-2663): against the fixture (Tasks needs
//     the suite's own tools: greet, slow_compute, confirm_delete, …) and, for Skills, against the
//     real community server too. Skills run in both eras; Tasks only in 2026-07-28, the one era
//     SEP-2663 defines it for (the server does not declare it on 2025-11-25, so those are reported
//     as not applicable). A scenario whose own checks the suite all skipped (an optional feature
//     the server does not declare, such as Skills' directoryRead, or a scenario the suite has not
//     written yet, such as tasks-status-notifications) is reported as not declared: neither passed
//     nor failed; and
//  4. the suite's `authorization` scenarios against the community's authorization server (its
//     issuer, in the path and the host form).
// The suite needs Node ≥ 22, so it runs on the Node 22 binary of the `node` dev dependency. A
// scenario counts as passed only when it made at least one successful check and none failed or
// warned (some scenarios "pass" with zero checks when a tool is missing; that is not a pass here).
// Each scenario is a process of the suite's client that mostly waits on the server: they run
// HAMLET_CONFORMANCE_PARALLEL at a time (default 4), the two eras of the fixture side by side.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.ts';
import { freshDemoAgentKey } from '../src/demo/demo-key.ts';
import { startHamlet } from '../src/main.ts';
import { startFixtureServer } from '../test/conformance/fixture-server.ts';
import { sqliteFromTemplate } from '../test/helpers/template.ts';

const root = resolve(import.meta.dirname, '..');
const node22 = join(root, 'node_modules/node/bin/node');
const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// The suite's client resolves *.localhost through Node's resolver, which glibc does not map to loopback.
const localhostDns = join(root, 'test/helpers/localhost-dns.mjs');
// The suite sends no credentials; this lets it call a community server with that community's key.
const withKey = join(root, 'test/helpers/conformance-auth.mjs');
const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--scenario='))?.slice('--scenario='.length);
/** `--extensions`: only the extension scenarios and the authorization server (a quicker run). */
const extensionsOnly = process.argv.includes('--extensions');

type Era = '2025-11-25' | '2026-07-28';
const ERAS: Era[] = ['2025-11-25', '2026-07-28'];

/** What the real servers are held to, per era: scenarios that call none of the suite's own tools. */
const PRODUCT: Record<Era, string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'logging-set-level',
    'ping',
    'tools-list',
    'prompts-list',
    'resources-list',
    'server-sse-multiple-streams',
  ],
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'caching',
    'http-header-validation',
    'sep-2164-resource-not-found',
    'prompts-list',
    'resources-list',
  ],
};
// The suite runs dns-rebinding-protection only against literal loopback names (localhost, 127.0.0.1,
// [::1]), so not on acme.localhost (test/e2e/error-matrix.test.ts covers foreign hosts there); the
// custom-header scenario needs a tool that mirrors an argument into a header: the network's do.
const NETWORK_ONLY: Record<Era, string[]> = {
  '2025-11-25': ['dns-rebinding-protection'],
  '2026-07-28': ['dns-rebinding-protection', 'http-custom-header-server-validation'],
};
/**
 * Checks of server-stateless that call the suite's diagnostic tools (test_missing_capability,
 * test_streaming_elicitation, test_logging_tool, test_trigger_*_change). A product server does not
 * list them, so on it they report "not testable"; the fixture run holds the same engine to them.
 */
const DIAGNOSTIC_CHECKS = new Set([
  'sep-2575-server-rejects-undeclared-capability',
  'sep-2575-missing-capability-http-400',
  'sep-2575-http-server-no-independent-requests-on-stream',
  'sep-2575-server-no-log-without-loglevel',
  'sep-2575-server-sends-prompts-list-changed-on-subscription',
  'sep-2575-server-sends-tools-list-changed-on-subscription',
]);

/** The extension scenarios, by extension. */
const EXTENSIONS: Record<string, string[]> = {
  skills: ['sep-2640-skills-enumeration', 'sep-2640-skills-directory', 'sep-2640-skills-manifest'],
  tasks: [
    'tasks-lifecycle',
    'tasks-capability-negotiation',
    'tasks-wire-fields',
    'tasks-request-state-removal',
    'tasks-mrtr-input',
    'tasks-request-headers',
    'tasks-dispatch-and-envelope',
    'tasks-status-notifications',
    'tasks-required-task-error',
    'tasks-mrtr-composition',
  ],
};
/** The eras each extension is defined for (SEP-2663: Tasks is not defined before 2026-07-28). */
const EXTENSION_ERAS: Record<string, Era[]> = {
  skills: ['2025-11-25', '2026-07-28'],
  tasks: ['2026-07-28'],
};
/** The extensions whose scenarios need only what a product server serves (no suite tools). */
const PRODUCT_EXTENSIONS = ['skills'];
/** Checks every scenario makes of the wire, whatever the extension: not a sign it was tested. */
const WIRE_CHECKS = new Set(['wire-schema-valid']);
/**
 * The authorization-server scenarios that run unattended (authorization-code-grant waits for a
 * person to sign in and consent in a browser).
 */
const AUTHORIZATION = ['authorization-server-metadata-endpoint'];

type Check = { id: string; name: string; status: string; errorMessage?: string };
type Outcome = {
  label: string;
  scenario: string;
  pass: boolean;
  /** Every check of the scenario's own was skipped: the server does not declare what it tests. */
  notDeclared?: boolean;
  succeeded: number;
  excused: number;
  problems: Check[];
};
type Target = {
  label: string;
  url: string;
  era: Era;
  scenarios: string[] | 'all';
  key?: string;
  product?: boolean;
  /** Extension scenarios are on no era's timeline: `--force` runs them at the era given. */
  force?: boolean;
  /** `server` (default) or `authorization` (the url is an issuer). */
  command?: 'server' | 'authorization';
};

/** The scenario runs at once: each is a process that mostly waits on the server it tests. */
const PARALLEL = Number(process.env.HAMLET_CONFORMANCE_PARALLEL) || 4;

/** `work` over `items`, at most PARALLEL at a time; the answers in the order of `items`. */
async function inPool<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return answers;
}

async function run(t: Target): Promise<Outcome[]> {
  const work = mkdtempSync(join(tmpdir(), 'hamlet-conformance-'));
  const results = join(work, 'results');
  const invocations =
    t.scenarios === 'all' ? [['--suite', 'all']] : t.scenarios.map((s) => ['--scenario', s]);
  const env = {
    ...process.env,
    HAMLET_CONFORMANCE_AUTH: t.key ? `${new URL(t.url).host}=${t.key}` : '',
  };
  const outputs = await inPool(invocations, async (extra) => {
    return new Promise<string>((done) => {
      const args = [
        '--import',
        localhostDns,
        '--import',
        withKey,
        cli,
        t.command ?? 'server',
        '--url',
        t.url,
        '--spec-version',
        t.era,
        '-o',
        results,
        ...(t.force ? ['--force'] : []),
        ...extra,
      ];
      const child = spawn(node22, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('close', () => done(out));
    });
  });
  const output = outputs.join('');
  if (verbose) console.log(output);
  const ran =
    t.scenarios === 'all'
      ? [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]!)
      : t.scenarios;
  const dirs = existsSync(results) ? readdirSync(results) : [];
  const label = `${t.label} ${t.era}`;
  const outcomes = ran.map((scenario): Outcome => {
    const dir = dirs.find(
      (d) =>
        d.startsWith(`server-${scenario}-`) || d.startsWith(`authorization-server-${scenario}-`),
    );
    const file = dir ? join(results, dir, 'checks.json') : undefined;
    const checks: Check[] = file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
    const excusable = (c: Check) => t.product === true && DIAGNOSTIC_CHECKS.has(c.id);
    const succeeded = checks.filter((c) => c.status === 'SUCCESS').length;
    const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const problems = failing.filter((c) => !excusable(c));
    const own = checks.filter((c) => !WIRE_CHECKS.has(c.id));
    const notDeclared =
      own.length > 0 && own.every((c) => c.status === 'SKIPPED') && problems.length === 0;
    return {
      label,
      scenario,
      pass: !notDeclared && succeeded > 0 && problems.length === 0,
      notDeclared,
      succeeded,
      excused: failing.length - problems.length,
      problems,
    };
  });
  rmSync(work, { recursive: true, force: true });
  if (outcomes.length === 0) {
    console.log(output);
    return [
      {
        label,
        scenario: '(suite did not run)',
        pass: false,
        succeeded: 0,
        excused: 0,
        problems: [],
      },
    ];
  }
  return outcomes;
}

function report(outcomes: Outcome[]): void {
  for (const o of outcomes) {
    const extra = `${o.problems.length ? `, ${o.problems.length} failed or warned` : ''}${o.excused ? `, ${o.excused} need the suite's diagnostic tools (run on the fixture)` : ''}`;
    if (o.notDeclared) {
      console.log(
        `- conformance [${o.label}] ${o.scenario} (not declared by the server: every check skipped)`,
      );
      continue;
    }
    console.log(
      `${o.pass ? '✓' : '✗'} conformance [${o.label}] ${o.scenario} (${o.succeeded} checks succeeded${extra})`,
    );
    for (const c of o.problems) console.log(`    ${c.status} ${c.name}: ${c.errorMessage ?? ''}`);
  }
}

if (!existsSync(node22) || !existsSync(cli)) {
  console.error(
    'conformance: run `npm install` first (needs the `node` and `@modelcontextprotocol/conformance` dev dependencies).',
  );
  console.log('Conformance: 0 scenarios passed, 1 failed');
  process.exit(1);
}

const outcomes: Outcome[] = [];

/** The extension scenarios of each extension defined for `era`. */
const extensionScenarios = (era: Era, extensions = Object.keys(EXTENSIONS)) =>
  extensions.filter((x) => EXTENSION_ERAS[x]!.includes(era)).flatMap((x) => EXTENSIONS[x]!);

const fixture = await startFixtureServer();
try {
  const scenarios = only ? [only] : ('all' as const);
  const eras = await Promise.all(
    ERAS.map(async (era) => [
      ...(extensionsOnly ? [] : await run({ label: 'fixture', url: fixture.url, era, scenarios })),
      ...(only
        ? []
        : await run({
            label: 'extensions, fixture',
            url: fixture.url,
            era,
            scenarios: extensionScenarios(era),
            force: true,
          })),
    ]),
  );
  outcomes.push(...eras.flat());
} finally {
  await fixture.close();
}

if (!only) {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-conformance-app-'));
  await sqliteFromTemplate(join(dir, 'hamlet.db'), 'demo');
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
    LOG_LEVEL: 'silent',
  });
  const hamlet = await startHamlet(config, {
    demo: true,
    handleSignals: false,
    logDestination: silent,
  });
  const port = new URL(hamlet.url).port;
  const key = (await freshDemoAgentKey(hamlet.store, hamlet.services.agents))?.key;
  try {
    for (const era of ERAS) {
      if (!extensionsOnly) {
        outcomes.push(
          ...(await run({
            label: 'community acme',
            url: `http://acme.localhost:${port}/api/mcp`,
            era,
            scenarios: PRODUCT[era],
            key,
            product: true,
          })),
        );
        outcomes.push(
          ...(await run({
            label: 'network',
            url: `http://localhost:${port}/api/mcp`,
            era,
            scenarios: [...PRODUCT[era], ...NETWORK_ONLY[era]],
            product: true,
          })),
        );
      }
      outcomes.push(
        ...(await run({
          label: 'extensions, community acme',
          url: `http://acme.localhost:${port}/api/mcp`,
          era,
          scenarios: extensionScenarios(era, PRODUCT_EXTENSIONS),
          key,
          product: true,
          force: true,
        })),
      );
    }
    for (const issuer of [`http://localhost:${port}/c/acme`, `http://acme.localhost:${port}`])
      outcomes.push(
        ...(await run({
          label: `authorization server ${issuer.includes('/c/') ? 'path' : 'host'} form`,
          url: issuer,
          era: '2026-07-28',
          scenarios: AUTHORIZATION,
          command: 'authorization',
        })),
      );
  } finally {
    await hamlet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

report(outcomes);
for (const era of ERAS) {
  const mine = outcomes.filter(
    (o) =>
      o.label.endsWith(era) &&
      !o.label.startsWith('extensions') &&
      !o.label.startsWith('authorization'),
  );
  if (!mine.length) continue;
  const checks = mine.reduce((n, o) => n + o.succeeded, 0);
  console.log(
    `Conformance ${era}: ${mine.filter((o) => o.pass).length}/${mine.length} scenarios passed, ${checks} checks succeeded`,
  );
}
for (const [extension, scenarios] of Object.entries(EXTENSIONS)) {
  for (const era of ERAS) {
    if (!EXTENSION_ERAS[extension]!.includes(era)) {
      console.log(
        `Conformance extension ${extension} ${era}: not applicable (the extension is defined for ${EXTENSION_ERAS[extension]!.join(', ')} only; the server does not declare it here)`,
      );
      continue;
    }
    for (const target of ['fixture', 'community acme']) {
      const mine = outcomes.filter(
        (o) => o.label === `extensions, ${target} ${era}` && scenarios.includes(o.scenario),
      );
      if (!mine.length) continue;
      console.log(
        `Conformance extension ${extension} ${era} [${target}]: ${mine.filter((o) => o.pass).length}/${mine.length} scenarios passed, ${mine.filter((o) => o.notDeclared).length} not declared (every check skipped)`,
      );
    }
  }
}
const authorization = outcomes.filter((o) => o.label.startsWith('authorization server'));
console.log(
  `Conformance authorization server: ${authorization.filter((o) => o.pass).length}/${authorization.length} scenarios passed (authorization-code-grant needs a person's consent in a browser: not run)`,
);
const passed = outcomes.filter((o) => o.pass).length;
const skipped = outcomes.filter((o) => o.notDeclared).length;
const failed = outcomes.length - passed - skipped;
console.log(`Conformance: ${skipped} extension scenarios not declared by the server (skipped)`);
console.log(`Conformance: ${passed} scenarios passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

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
//     issuer, in the path and the host form): the metadata, and the authorization code grant with
//     the script in the person's place (the demo administrator consents; see authorizationCodeGrant).
// The suite needs Node ≥ 22, so it runs on the Node 22 binary of the `node` dev dependency. A
// scenario counts as passed only when it made at least one successful check and none failed or
// warned (some scenarios "pass" with zero checks when a tool is missing; that is not a pass here).
// Each scenario is a process of the suite's client that mostly waits on the server: they run
// HAMLET_CONFORMANCE_PARALLEL at a time (default 4), the two eras of the fixture side by side.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/config.ts';
import { DEMO_ADMIN_EMAIL, freshDemoAdmin } from '../src/demo/demo-admin.ts';
import { freshDemoAgentKey } from '../src/demo/demo-key.ts';
import { startHamlet } from '../src/main.ts';
import { startFixtureServer } from '../test/conformance/fixture-server.ts';
import { sqliteFromTemplate } from '../test/helpers/template.ts';
import { freePort } from '../test/helpers/serve.ts';

const root = resolve(import.meta.dirname, '..');
/** Node 22, fetched once into .cache (scripts/node22.sh). */
const node22 = execFileSync(join(root, 'scripts/node22.sh'), { encoding: 'utf8' }).trim();
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
  /** Run every scenario of the command in one process (later scenarios use what earlier found). */
  together?: boolean;
  /** More arguments for the suite (the authorization scenarios' client and callback port). */
  args?: string[];
  /** Sees the suite's output as it comes (to play the person the authorization scenario waits for). */
  onOutput?: (output: string) => void;
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
    t.scenarios === 'all'
      ? [['--suite', 'all']]
      : t.together
        ? [[]]
        : t.scenarios.map((s) => ['--scenario', s]);
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
        ...(t.args ?? []),
        ...extra,
      ];
      const child = spawn(node22, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c;
        t.onOutput?.(out);
      });
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

/**
 * The suite's authorization-server scenarios against `issuer`: the metadata, then the authorization
 * code grant, for which the suite prints the authorization URL and waits for the person's browser to
 * bring the code to its callback. The script plays that person: the demo administrator approves the
 * request through the domain's consent (what the consent page's form submits; the page itself is
 * tested in test/oauth), and the redirect is followed to the suite's callback.
 */
async function authorizationCodeGrant(
  hamlet: Awaited<ReturnType<typeof startHamlet>>,
  issuer: string,
  label: string,
): Promise<Outcome[]> {
  const { services, store } = hamlet;
  const acme = (await store.communities.getBySlug('acme'))!;
  const callbackPort = await freePort();
  const redirect = `http://127.0.0.1:${callbackPort}/callback`;
  const { client_id } = (await services.oauth.clients.register(acme, {
    client_name: 'MCP conformance suite',
    redirect_uris: [redirect],
    token_endpoint_auth_method: 'none',
  })) as { client_id: string };
  // The demo's administrator (made on a demo start, as `hamlet serve --demo` does).
  await freshDemoAdmin(store, services.accounts);
  const admin = (await store.people.getByEmail(DEMO_ADMIN_EMAIL))!;
  const person = {
    kind: 'person' as const,
    personId: admin.id,
    displayName: admin.displayName,
    roles: await services.auth.rolesOf(admin.id),
  };
  const u = new URL(issuer);
  const pathForm = u.pathname.startsWith('/c/');
  let consented: Promise<void> | undefined;
  const consent = async (authorizeUrl: string) => {
    const site = await services.oauth.siteFor(u.host, pathForm ? 'acme' : undefined, pathForm);
    const checked = await services.oauth.authorization.check(
      site!,
      Object.fromEntries(new URL(authorizeUrl).searchParams),
    );
    if (!checked.ok)
      throw new Error(`the authorization request was refused: ${JSON.stringify(checked)}`);
    const back = await services.oauth.authorization.approve(
      checked.request,
      person,
      checked.request.scopes,
    );
    // The browser following the redirect to the suite's callback (which may not listen quite yet).
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(back);
        return;
      } catch (err) {
        if (attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const outcomes = await run({
    label,
    url: issuer,
    era: '2026-07-28',
    // The grant reads the metadata the first scenario fetched: both run in one process.
    scenarios: ['authorization-server-metadata-endpoint', 'authorization-code-grant'],
    together: true,
    command: 'authorization',
    args: ['--client-id', client_id, '--port', String(callbackPort), '--resource', `${issuer}/mcp`],
    onOutput: (output) => {
      const asked = /^(https?:\/\/\S+[?&]response_type=\S+)$/m.exec(output)?.[1];
      if (asked && !consented)
        consented = consent(asked).catch((err: unknown) =>
          console.error('conformance: consent failed:', err),
        );
    },
  });
  await consented;
  return outcomes;
}

if (!existsSync(node22) || !existsSync(cli)) {
  console.error(
    'conformance: run `npm install` first (needs the `@modelcontextprotocol/conformance` dev dependency), and scripts/node22.sh must reach the npm registry once.',
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
    // The suite's callback is on a loopback address.
    HAMLET_OAUTH_ALLOW_PRIVATE_CLIENTS: '1',
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
    for (const issuer of [`http://localhost:${port}/c/acme`, `http://acme.localhost:${port}`]) {
      const label = `authorization server ${issuer.includes('/c/') ? 'path' : 'host'} form`;
      outcomes.push(...(await authorizationCodeGrant(hamlet, issuer, label)));
    }
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
  `Conformance authorization server: ${authorization.filter((o) => o.pass).length}/${authorization.length} scenarios passed (path and host form)`,
);
const passed = outcomes.filter((o) => o.pass).length;
const skipped = outcomes.filter((o) => o.notDeclared).length;
const failed = outcomes.length - passed - skipped;
console.log(`Conformance: ${skipped} extension scenarios not declared by the server (skipped)`);
console.log(`Conformance: ${passed} scenarios passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

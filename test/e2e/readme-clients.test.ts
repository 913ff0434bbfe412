// The README's "MCP clients, set up" blocks are current: each is read from the README as it is
// written, its URL and header taken the way its host reads them, and driven against `hamlet serve
// --demo` (the URL its start line gives), on localhost and 127.0.0.1 alike. The TypeScript blocks run
// as they are (SDK 1.x, client 2.x); mcp-remote runs as the Claude Desktop block starts it, driven
// over stdio; the Inspector's command runs as written in a shell (on the machine's Node, 20 or 22);
// the Claude Code, Cursor and VS Code blocks give the URL and header the SDKs connect with; the
// connector URL leads to this community's authorization server; the tool count the README states
// is the one the demo lists. The Python blocks run with the `mcp` and `fastmcp` packages of
// .cache/readme-python (CI makes it: .ci/run), else of python3; without them they are skipped with
// the reason, except under CI=true, where a block that cannot run fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort, serveProcess, type StartLine } from '../helpers/serve.ts';

const root = resolve(import.meta.dirname, '../..');

/** The README's client blocks by name (`<!-- client: name -->` above a fenced block). */
function readmeBlocks(): Map<string, string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const m of readme.matchAll(/<!-- client: ([\w-]+) -->\n```\w*\n([\s\S]*?)\n```/g))
    blocks.set(m[1]!, m[2]!);
  return blocks;
}

const BLOCKS = readmeBlocks();
const HOSTS = ['localhost', '127.0.0.1'] as const;

let port = 0;
let key = '';
let start: StartLine | undefined;
const started: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'hamlet-readme-clients-'));

before(async () => {
  port = await freePort();
  const served = await serveProcess(
    { DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`, PORT: String(port), HOST: '127.0.0.1' },
    { demo: true, started },
  );
  start = served.start;
  key = served.key!;
  assert.ok(key, JSON.stringify(start));
});
after(() => {
  for (const child of started) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** A block as a reader on `host` uses it: the README's port is the one served. */
function block(name: string, host: (typeof HOSTS)[number]): string {
  const text = BLOCKS.get(name);
  assert.ok(text, `the README has no "${name}" client block`);
  return text.replaceAll('localhost:8787', `${host}:${port}`);
}

/** The printed MCP URL of acme, on `host`. */
function printedUrl(host: string): string {
  const printed = start?.demo?.mcp;
  assert.equal(printed, `http://localhost:${port}/c/acme/api/mcp`);
  return printed.replace('localhost', host);
}

/** Connects with the SDK 1.x and 2.x clients and searches: the tools a host would get. */
async function drive(url: string, headers: Record<string, string>): Promise<void> {
  const v1 = new ClientV1({ name: 'readme-v1', version: '1.0.0' });
  await v1.connect(new HttpV1(new URL(url), { requestInit: { headers } }));
  const v2 = new ClientV2({ name: 'readme-v2', version: '1.0.0' });
  await v2.connect(new HttpV2(new URL(url), { requestInit: { headers } }));
  try {
    for (const client of [v1, v2] as const) {
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((t) => t.name === 'search_community'),
        JSON.stringify(tools.map((t) => t.name)),
      );
      const found = (await client.callTool({
        name: 'search_community',
        arguments: { query: 'webhook signature' },
      })) as { isError?: boolean; structuredContent?: { results: unknown[] } };
      assert.notEqual(found.isError, true, JSON.stringify(found));
      assert.ok(found.structuredContent!.results.length > 0);
    }
  } finally {
    await v1.close();
    await v2.close();
  }
}

/** `--header "Name: value"` of a shell command, `$ACME_KEY` expanded as the shell would. */
function shellHeader(command: string): Record<string, string> {
  const m = /--header "([^:"]+):\s*([^"]+)"/.exec(command);
  assert.ok(m, command);
  return { [m[1]!]: m[2]!.replace('$ACME_KEY', key) };
}

/** Runs a shell command as a reader pastes it, with ACME_KEY set; its stdout. */
async function runShell(command: string): Promise<string> {
  const work = mkdtempSync(join(dir, 'shell-'));
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', command], {
      cwd: work,
      env: { ...process.env, ACME_KEY: key, npm_config_yes: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done(out) : fail(new Error(`exited with ${code}:\n${err.slice(-3000)}${out}`)),
    );
  });
}

test("the Inspector's command runs as written and lists the demo's tools, as many as the README says", async () => {
  const command = block('inspector', '127.0.0.1');
  assert.match(command, /^npx -y /, 'non-interactive npx needs -y');
  const out = await runShell(command);
  const listed = JSON.parse(out.slice(out.indexOf('{'))) as { tools: { name: string }[] };
  assert.ok(
    listed.tools.some((t) => t.name === 'search_community'),
    out.slice(0, 500),
  );
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const said = /the demo's acme\s+lists (\d+) tools/.exec(readme)?.[1];
  assert.equal(Number(said), listed.tools.length, "the README's count of the demo's tools");
});

for (const host of HOSTS) {
  test(`Claude Code and the Inspector: the command's URL and header work (${host})`, async () => {
    for (const name of ['claude-code', 'inspector']) {
      const command = block(name, host);
      const url = /(http:\/\/\S+\/api\/mcp)/.exec(command)?.[1];
      assert.equal(url, printedUrl(host), command);
      assert.match(command, /--transport http /);
      await drive(url, shellHeader(command));
    }
  });

  test(`Cursor and VS Code: the JSON's url and headers work (${host})`, async () => {
    const cursor = JSON.parse(block('cursor', host)).mcpServers['hamlet-acme'];
    assert.equal(cursor.url, printedUrl(host));
    await drive(cursor.url, {
      Authorization: cursor.headers.Authorization.replace('${env:ACME_KEY}', key),
    });
    const vscode = JSON.parse(block('vscode', host));
    const server = vscode.servers['hamlet-acme'];
    assert.equal(server.type, 'http');
    assert.equal(server.url, printedUrl(host));
    const input = vscode.inputs.find((i: { id: string }) => i.id === 'hamlet-key');
    assert.equal(input.password, true);
    await drive(server.url, {
      Authorization: server.headers.Authorization.replace('${input:hamlet-key}', key),
    });
  });

  // The connector's OAuth resource and issuer are named on the listed origin (locally localhost):
  // the README gives the connector URL on localhost only.
  if (host === 'localhost')
    test(`the connector URL leads to the community's authorization server (${host})`, async () => {
      const connector = block('connector', host).trim();
      assert.equal(connector, printedUrl(host).replace('/api/mcp', '/mcp'));
      const res = await fetch(connector, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(
        res.headers.get('www-authenticate') ?? '',
      )?.[1];
      assert.ok(metadataUrl, res.headers.get('www-authenticate') ?? '');
      const resource = await (await fetch(metadataUrl)).json();
      assert.equal(resource.resource, connector);
      const issuer = new URL(resource.authorization_servers[0] as string);
      const server = await fetch(
        `${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`,
      );
      assert.equal(server.status, 200);
      assert.equal((await server.json()).issuer, issuer.href.replace(/\/$/, ''));
    });

  test(`mcp-remote, started as the Claude Desktop block starts it, bridges to the server (${host})`, async () => {
    const config = JSON.parse(block('mcp-remote', host)).mcpServers['hamlet-acme'];
    assert.equal(config.command, 'npx');
    const [bin, ...args] = config.args as string[];
    assert.equal(bin, 'mcp-remote');
    assert.equal(args[0], printedUrl(host));
    const configDir = mkdtempSync(join(dir, 'mcp-remote-'));
    const client = new ClientV1({ name: 'readme-mcp-remote', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(root, 'node_modules/mcp-remote/dist/proxy.js'), ...args],
        env: {
          ...(process.env as Record<string, string>),
          ...config.env,
          AUTH_HEADER: (config.env.AUTH_HEADER as string).replace(/hmlt_live_\S*/, key),
          MCP_REMOTE_CONFIG_DIR: configDir,
        },
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'search_community'));
      const found = (await client.callTool({
        name: 'search_community',
        arguments: { query: 'webhook signature' },
      })) as { structuredContent?: { results: unknown[] } };
      assert.ok(found.structuredContent!.results.length > 0, JSON.stringify(found));
    } finally {
      await client.close();
    }
  });
}

/** Runs a block as a program (`node file.mjs`, `python3 file.py`) with ACME_KEY set; its stdout. */
async function runBlock(program: string, file: string, source: string): Promise<string> {
  const work = mkdtempSync(join(dir, 'block-'));
  // The block's imports resolve as in a project that installed the packages.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(join(work, file), source);
  return new Promise((done, fail) => {
    const child = spawn(program, [file], {
      cwd: work,
      env: { ...process.env, ACME_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done(out) : fail(new Error(`${file} exited with ${code}:\n${err}${out}`)),
    );
  });
}

for (const host of HOSTS) {
  test(`the TypeScript SDK 1.x and client 2.x blocks run as written (${host})`, async () => {
    for (const name of ['ts-sdk-1', 'ts-client-2']) {
      const source = block(name, host);
      assert.ok(source.includes(printedUrl(host)), name);
      const out = await runBlock(process.execPath, 'hamlet.mjs', source);
      assert.match(out, /^\[\s*'/, `${name} printed: ${out}`);
    }
  });
}

/** The Python the blocks run with: the one CI prepared with the packages, else the machine's. */
const PYTHON = existsSync(join(root, '.cache/readme-python/bin/python3'))
  ? join(root, '.cache/readme-python/bin/python3')
  : 'python3';

/** Whether PYTHON can import `module`; the reason it cannot otherwise. */
function python(module: string): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', `import ${module}`], { encoding: 'utf8' });
  if (probe.error) return `${PYTHON} is not installed (${probe.error.message})`;
  if (probe.status !== 0)
    return `the Python package "${module}" is not installed for ${PYTHON} (pip install ${module}; CI installs it into .cache/readme-python)`;
  return undefined;
}

for (const [name, module] of [
  ['python-sdk', 'mcp'],
  ['fastmcp', 'fastmcp'],
] as const) {
  const missing = python(module);
  // In CI every block runs: a block that cannot is a failure, never a skip.
  const skip = missing && process.env.CI !== 'true' ? missing : false;
  if (skip) console.log(`skipped: the README's ${name} block: ${skip}`);
  test(
    `the README's ${name} block runs as written (localhost and 127.0.0.1)`,
    { skip },
    async () => {
      assert.equal(missing, undefined, `CI=true: ${missing}`);
      for (const host of HOSTS) {
        const source = block(name, host);
        assert.ok(source.includes(printedUrl(host)), name);
        const out = await runBlock(PYTHON, 'hamlet.py', source);
        assert.match(out, /^\[\s*'/, `${name} printed: ${out}`);
      }
    },
  );
}

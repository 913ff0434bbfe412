// nginx configured from the example in docs/operations.md itself, so that a test through it proves
// the documented configuration: the `upstream hamlet` block (its `max_fails`/`fail_timeout`), the
// proxy snippet (`proxy_next_upstream`, `X-Request-Id`, …) and the apex server block (its
// locations, `/metrics` denied) are taken from the page as written. Only what a test on loopback
// cannot have is substituted: the instances' ports, a plain `listen` on a free port instead of TLS
// on 443 (the certificate lines dropped), and file paths in a temporary directory. nginx runs
// unprivileged-style with its own prefix, pid file and error log there.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/serve.ts';

export const NGINX = '/usr/sbin/nginx';
const DOC = new URL('../../docs/operations.md', import.meta.url);

export type Nginx = {
  url: string;
  /** The configuration nginx runs with (for a failing test's message). */
  config: string;
  /** The end of nginx's error log. */
  errorLog(): string;
  stop(): Promise<void>;
};

/** Why nginx cannot run here, if it cannot. */
export function nginxUnavailable(): string | undefined {
  return existsSync(NGINX) ? undefined : `nginx is not installed (${NGINX})`;
}

/** The documented nginx example, split into its parts. */
export function documentedNginx(): { upstream: string; snippet: string; apex: string } {
  const page = readFileSync(DOC, 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/operations.md has no ```nginx example');
  const upstream = /^upstream hamlet \{[\s\S]*?^\}/m.exec(block)?.[0];
  const snippetStart = block.indexOf('# /etc/nginx/snippets/hamlet-proxy.conf');
  const snippetEnd = block.indexOf('\nserver {', snippetStart);
  const servers = block.match(/^server \{[\s\S]*?^\}/gm) ?? [];
  const apex = servers.find((s) => s.includes('listen 443') && s.includes('*.forum.example.com'));
  if (!upstream || snippetStart < 0 || snippetEnd < 0 || !apex)
    throw new Error('the nginx example lacks the upstream, the proxy snippet or the apex server');
  return { upstream, snippet: block.slice(snippetStart, snippetEnd), apex };
}

/** The documented configuration with `ports` for the instances and `listen` for nginx. */
export function nginxConfig(dir: string, listen: number, ports: number[]): string {
  const doc = documentedNginx();
  const servers = [...doc.upstream.matchAll(/^\s*server 127\.0\.0\.1:\d+(.*)$/gm)];
  if (servers.length !== ports.length)
    throw new Error(`the example's upstream has ${servers.length} servers, not ${ports.length}`);
  let n = 0;
  const upstream = doc.upstream.replace(/127\.0\.0\.1:\d+/g, () => `127.0.0.1:${ports[n++]}`);
  writeFileSync(join(dir, 'hamlet-proxy.conf'), doc.snippet);
  const apex = doc.apex
    .replace(/^\s*listen 443 ssl http2;$/m, `  listen 127.0.0.1:${listen};`)
    .replace(/^\s*listen \[::\]:443.*\n/m, '')
    .replace(/^\s*ssl_certificate.*\n/gm, '')
    .replaceAll('include snippets/hamlet-proxy.conf;', `include ${dir}/hamlet-proxy.conf;`);
  if (apex.includes('443')) throw new Error(`the apex server still listens on 443:\n${apex}`);
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/${t};`)
    .join(' ');
  return `${user}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${temp}
${upstream}
${apex}
}
`;
}

/** Starts nginx in front of `ports` with the documented configuration. */
export async function startNginx(ports: number[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-nginx-'));
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
  const listen = await freePort();
  const config = nginxConfig(dir, listen, ports);
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', file];
  const check = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx refused the documented configuration: ${check.stderr}\n${config}`);
  }
  const child: ChildProcess = spawn(NGINX, args, { stdio: 'ignore' });
  child.on('error', () => undefined); // an exit is what the tests see
  const url = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/heartbeat`).then(
      async (r) => (await r.arrayBuffer(), true),
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8').slice(-4000);
    } catch {
      return '';
    }
  };
  return {
    url,
    config,
    errorLog,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

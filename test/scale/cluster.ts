// A cluster for the scale-out test: three `hamlet serve` processes over one PostgreSQL behind nginx
// (Debian's package), round robin, each instance trusting the proxies in front of it. Instances can
// be killed with SIGKILL; nginx passes a request that finds an instance dead to the next one, and
// names the instance that answered in X-Upstream.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, serveProcess } from '../helpers/serve.ts';

export const NGINX = '/usr/sbin/nginx';

export type Instance = { port: number; child: ChildProcess; alive: boolean };
export type Cluster = {
  url: string;
  instances: Instance[];
  demoKey: string;
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
};

function nginxConfig(dir: string, listen: number, upstreams: number[]): string {
  const root = process.getuid?.() === 0 ? 'user root;' : '';
  return `${root}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream hamlet {
    ${upstreams.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join('\n    ')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${listen};
    location / {
      proxy_pass http://hamlet;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # Event streams are not buffered; a dead instance's requests go to the next one (POSTs too:
      # a refused connection never reached Hamlet, and MCP writes carry idempotency keys).
      proxy_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout non_idempotent;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts the cluster over `databaseUrl`: the first instance creates the demo community and prints
 * its agent key (the others start without --demo, so that key stays valid).
 */
export async function startCluster(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'hamlet-cluster-'));
  const started: ChildProcess[] = [];
  try {
    return await start(dir, databaseUrl, env, started);
  } catch (err) {
    // Nothing half-started may outlive the test.
    for (const child of started) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function start(
  dir: string,
  databaseUrl: string,
  env: Record<string, string>,
  started: ChildProcess[],
): Promise<Cluster> {
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const listen = await freePort();
  const common = {
    ...env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    HAMLET_TRUST_PROXY: '1',
    PORT: '',
  };
  const first = await serveProcess({ ...common, PORT: String(ports[0]) }, { demo: true, started });
  const demoKey = first.key!;
  const rest = await Promise.all(
    ports.slice(1).map((port) => serveProcess({ ...common, PORT: String(port) }, { started })),
  );
  const instances: Instance[] = [first, ...rest].map((s, i) => ({
    port: ports[i]!,
    child: s.child,
    alive: true,
  }));
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, listen, ports));
  const check = spawnSync(NGINX, ['-t', '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused its configuration: ${check.stderr}`);
  const nginx = spawn(NGINX, ['-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  started.push(nginx);
  const url = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/heartbeat`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const exit = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    url,
    instances,
    demoKey,
    async kill(port) {
      const instance = instances.find((i) => i.port === port)!;
      instance.alive = false;
      await exit(instance.child, 'SIGKILL');
    },
    async stop() {
      await exit(nginx, 'SIGQUIT');
      await Promise.all(instances.map((i) => exit(i.child, 'SIGTERM')));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why the cluster cannot run here, if it cannot (no nginx binary). */
export function clusterUnavailable(): string | undefined {
  return existsSync(NGINX)
    ? undefined
    : `nginx is not installed (${NGINX}; Debian package "nginx")`;
}

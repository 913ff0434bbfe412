// The README's start command path: `hamlet serve --demo` creates the demo once, prints where to
// connect and a fresh agent key that works; the next start prints a new key and retires the old one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rpc } from '../mcp/http-client.ts';
import { freePort, serveProcess } from '../helpers/serve.ts';

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

test(
  'serve --demo prints a working agent key, replaced at the next start',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hamlet-demo-'));
    const port = await freePort();
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'hamlet.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
    };
    // The path form the banner prints first: reachable without resolving acme.localhost.
    const url = `http://127.0.0.1:${port}/c/acme/api/mcp`;
    const listCategories = (key: string) =>
      rpc(
        url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_categories', arguments: {} },
        },
        { authorization: `Bearer ${key}` },
      );
    try {
      const first = await serveProcess(env, { demo: true });
      const key1 = first.banner.match(/agent key:\s+(hmlt_live_[A-Za-z0-9]{32,})/)?.[1];
      assert.ok(key1, first.banner);
      assert.match(
        first.banner,
        new RegExp(`MCP \\(acme\\):\\s+http://localhost:${port}/c/acme/api/mcp`),
      );
      assert.match(
        first.banner,
        new RegExp(`\\s+http://acme\\.localhost:${port}/api/mcp\\s+\\(host form`),
      );
      const ok = (await listCategories(key1)).json().result;
      assert.equal(ok.isError, false);
      assert.ok(ok.structuredContent.categories.some((c: { slug: string }) => c.slug === 'docs'));
      await stop(first.child);

      const second = await serveProcess(env, { demo: true });
      const key2 = second.banner.match(/agent key:\s+(hmlt_live_[A-Za-z0-9]{32,})/)?.[1];
      assert.ok(key2 && key2 !== key1);
      assert.equal((await listCategories(key2)).json().result.isError, false);
      const old = (await listCategories(key1)).json().result;
      assert.equal(old.structuredContent.code, 'unauthorized');
      await stop(second.child);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

// MCP helpers of the fault suite: a 2026-07-28 `subscriptions/listen` stream read in the background
// (it stays open across a database fault: the client's connection is to the instance), and the
// tool calls the suite makes with the demo agent's key.
import assert from 'node:assert/strict';
import { callTool } from '../security/mcp.ts';
import type { Instance } from './instances.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

export type ListenStream = {
  /** The JSON-RPC messages received so far. */
  messages: Array<{ method?: string; params?: { uri?: string } }>;
  /** How many notifications/resources/updated for `uri` arrived so far. */
  updates(uri: string): number;
  close(): void;
};

/** Opens a listen stream on `instance` for updates of `uri`; resolves once it is acknowledged. */
export async function listenFor(
  instance: Instance,
  key: string,
  uri: string,
): Promise<ListenStream> {
  const controller = new AbortController();
  const res = await fetch(instance.url('/c/acme/api/mcp'), {
    method: 'POST',
    signal: controller.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: `listen-${instance.name}`,
      method: 'subscriptions/listen',
      params: { _meta: META, notifications: { resourceSubscriptions: [uri] } },
    }),
  });
  assert.equal(res.status, 200, `listen stream on ${instance.name}: ${res.status}`);
  const messages: ListenStream['messages'] = [];
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, sep)
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('');
          buffer = buffer.slice(sep + 2);
          if (data) messages.push(JSON.parse(data));
        }
      }
    } catch {
      // closed by us
    }
  })();
  const stream: ListenStream = {
    messages,
    updates: (u) =>
      messages.filter((m) => m.method === 'notifications/resources/updated' && m.params?.uri === u)
        .length,
    close: () => controller.abort(),
  };
  await until(
    () => messages.some((m) => m.method === 'notifications/subscriptions/acknowledged'),
    5_000,
    `the listen stream on ${instance.name} is acknowledged`,
  );
  return stream;
}

/** A topic created through `instance`; its id and resource URI. */
export async function createTopic(
  instance: Instance,
  key: string,
  title: string,
): Promise<{ id: string; uri: string }> {
  const answer = await callTool(
    instance.url('/c/acme/api/mcp'),
    'create_topic',
    { category: 'support', title, body: `The body of ${title}.` },
    key,
  );
  assert.equal(answer.isError, false, JSON.stringify(answer));
  const id = answer.structured.topic.id as string;
  return { id, uri: `hamlet://acme/topics/${id}` };
}

/** A reply written through `instance`. */
export async function reply(instance: Instance, key: string, topic: string, body: string) {
  const answer = await callTool(
    instance.url('/c/acme/api/mcp'),
    'reply_to_topic',
    { topic, body },
    key,
  );
  assert.equal(answer.isError, false, JSON.stringify(answer));
}

/** Polls `check` every 50 ms until it holds; fails with `what` after `ms`. Resolves with the wait. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) assert.fail(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Math.round(performance.now() - started);
}

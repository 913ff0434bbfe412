// Per-address limits count a client once however its address is written: an IPv6 client is its
// /64 (a host picks any address in it at will), an IPv4-mapped IPv6 address is its IPv4 address,
// and upper case or uncompressed spellings are the same address. Checked through a trusted proxy
// (X-Forwarded-For) on every face that limits by address: the MCP door, MCP sessions and event
// streams, REST, web pages and web sign-up; on both engines (PostgreSQL counts in shared database
// buckets and keeps sessions in the database).
import '../helpers/localhost-dns.mjs';
import assert from 'node:assert/strict';
import { startTestHamlet, type TestHamlet } from '../app/helpers.ts';
import { INITIALIZE, raw, rpc, type RawResponse } from '../mcp/http-client.ts';
import { WebClient } from '../web/client.ts';
import { eachEngine } from './engines.ts';

const PER_MINUTE = 4;
const PING = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** `count` addresses of one IPv6 /64, each written differently. */
const sameSlash64 = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    i % 2 ? `${prefix}:${(i + 1).toString(16)}:0:0:${i}`.toUpperCase() : `${prefix}::${i + 1}`,
  );

type Face = { name: string; send(h: TestHamlet, from: string): Promise<RawResponse> };

/** What the limit decided: 429, or "in" for anything else (the request went on to its answer). */
const verdict = (r: RawResponse) => (r.status === 429 ? 429 : 'in');
const admitted = (n: number) => [...Array<string>(n).fill('in'), 429];

const FACES: Face[] = [
  {
    name: 'MCP',
    send: (h, from) =>
      rpc(h.hostUrl('localhost', '/api/mcp'), PING, {
        accept: 'application/json, text/event-stream',
        'x-forwarded-for': from,
      }),
  },
  {
    name: 'REST',
    send: (h, from) =>
      raw(h.hostUrl('acme.localhost', '/api/v1/categories'), {
        headers: { 'x-forwarded-for': from },
      }),
  },
  {
    name: 'web',
    send: (h, from) =>
      raw(h.hostUrl('acme.localhost', '/signin'), { headers: { 'x-forwarded-for': from } }),
  },
];

eachEngine('per-address limits bucket IPv6 by /64 and IPv4-mapped as IPv4', async (engine) => {
  const h = await startTestHamlet(
    {
      ...engine.env,
      LOG_LEVEL: 'warn',
      HAMLET_TRUST_PROXY: '1',
      HAMLET_RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_MINUTE),
      HAMLET_RATE_LIMIT_SIGNUPS_PER_IP_PER_HOUR: '2',
      HAMLET_MCP_SESSIONS_PER_ADDRESS: '2',
      HAMLET_MCP_STREAMS_PER_ADDRESS: '1',
    },
    { demo: true },
  );
  try {
    // The per-address budget is one across the faces: each face gets clients of its own.
    for (const [i, face] of FACES.entries()) {
      const prefix = `2001:db8:${i + 1}:a`;
      const statuses = [];
      for (const from of sameSlash64(prefix, PER_MINUTE + 1))
        statuses.push(verdict(await face.send(h, from)));
      assert.deepEqual(
        statuses,
        admitted(PER_MINUTE),
        `${face.name}: ${PER_MINUTE + 1} requests from one /64 (${statuses.join(' ')})`,
      );
      // The next /64 is another client.
      assert.equal(verdict(await face.send(h, `2001:db8:${i + 1}:b::1`)), 'in', face.name);

      // An IPv4 client, whether written as IPv4 or as IPv4-mapped IPv6.
      const v4 = `198.51.100.${i + 1}`;
      const spelled = [v4, `::ffff:${v4}`, `::FFFF:${v4}`, `0:0:0:0:0:ffff:${v4}`, v4];
      const v4Statuses = [];
      for (const from of spelled) v4Statuses.push(verdict(await face.send(h, from)));
      assert.deepEqual(v4Statuses, admitted(PER_MINUTE), `${face.name} IPv4`);
      assert.equal(verdict(await face.send(h, `198.51.100.${i + 101}`)), 'in', face.name);
    }

    // MCP sessions per client: a third from the same /64 makes room by ending the first.
    const mcp = h.hostUrl('localhost', '/api/mcp');
    const open = async (from: string) =>
      (await rpc(mcp, INITIALIZE('2025-11-25'), { 'x-forwarded-for': from })).headers[
        'mcp-session-id'
      ]!;
    const [s1, , s3] = [
      await open('2001:db8:77:1::1'),
      await open('2001:db8:77:1::2'),
      await open('2001:db8:77:1:ffff::3'),
    ];
    const ping = (sid: string) =>
      rpc(mcp, PING, { 'mcp-session-id': sid, 'x-forwarded-for': '2001:db8:77:2::1' });
    assert.equal((await ping(s1!)).status, 404, 'the first session of the /64 made room');
    assert.equal((await ping(s3!)).status, 200);

    // Open event streams per client: one for this /64, whichever address asks for the second.
    const stream = (sid: string, from: string, signal: AbortSignal) =>
      fetch(mcp, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'x-forwarded-for': from },
        signal,
      });
    const held = new AbortController();
    try {
      const first = await stream(await open('2001:db8:78:1::1'), '2001:db8:78:1::2', held.signal);
      assert.equal(first.status, 200);
      const second = await stream(await open('2001:db8:78:1::3'), '2001:db8:78:1::4', held.signal);
      assert.equal(second.status, 429, 'a second stream from the same /64');
    } finally {
      held.abort();
    }

    // Sign-up: a few new accounts per client and hour, the client being the /64. (The form is
    // fetched from elsewhere: only the posts count against the /64's request budget.)
    const signUp = async (from: string, n: number) => {
      const client = new WebClient(h.hostUrl('localhost', ''));
      await client.get('/signup', { 'x-forwarded-for': `203.0.113.${n + 1}` });
      return client.post(
        '/signup',
        { email: `new${n}@example.com`, password: 'correct horse battery', name: `New ${n}` },
        { headers: { 'x-forwarded-for': from }, follow: false },
      );
    };
    const signUps = [];
    for (const [n, from] of sameSlash64('2001:db8:99:1', 3).entries())
      signUps.push((await signUp(from, n)).status);
    assert.deepEqual(signUps, [303, 303, 429], `sign-ups from one /64: ${signUps.join(' ')}`);
    assert.equal((await signUp('2001:db8:99:2::1', 9)).status, 303, 'another /64');
  } finally {
    await h.stop();
  }
});

// Presenting a result in the path form: every string that is a canonical community URL becomes
// `<apex>/c/<slug>/…`, at any depth; other strings, other hosts and non-plain objects stay as they
// are; a second origin (another configuration) is served by its own rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toPathForm, type UrlConfig } from './urls.ts';

const local: UrlConfig = { publicScheme: 'http', baseDomain: 'localhost', port: 8787 };
const hosted: UrlConfig = {
  publicScheme: 'https',
  baseDomain: 'hamlet.example',
  port: 443,
  publicOrigin: 'https://hamlet.example',
};

test('canonical community URLs become the path form, at any depth; nothing else changes', () => {
  const when = new Date(0);
  const value = {
    url: 'http://acme.localhost:8787/t/first?page=2',
    posts: [
      { url: 'http://acme.localhost:8787/t/first#p2', body: 'see http://acme.localhost:8787/t/x' },
      'http://other.example/t/first',
    ],
    apex: 'http://localhost:8787/api/mcp',
    deeper: { not: 'http://acme.localhost:87870/t/x', when },
    count: 3,
    none: null,
  };
  assert.deepEqual(toPathForm(local, value), {
    url: 'http://localhost:8787/c/acme/t/first?page=2',
    posts: [
      {
        url: 'http://localhost:8787/c/acme/t/first#p2',
        body: 'see http://acme.localhost:8787/t/x',
      },
      'http://other.example/t/first',
    ],
    apex: 'http://localhost:8787/api/mcp',
    deeper: { not: 'http://acme.localhost:87870/t/x', when },
    count: 3,
    none: null,
  });
  assert.equal(toPathForm(local, value).deeper.when, when, 'a Date is kept as it is');
  assert.equal(value.url, 'http://acme.localhost:8787/t/first?page=2', 'the value is not changed');
});

test('each origin is turned by its own rules, one after the other', () => {
  const url = 'https://acme.hamlet.example/t/x';
  assert.equal(toPathForm(hosted, url), 'https://hamlet.example/c/acme/t/x');
  assert.equal(toPathForm(local, url), url);
  assert.equal(toPathForm(hosted, url), 'https://hamlet.example/c/acme/t/x');
});

test('text that only starts with a community URL (a post that opens with a link) stays as written', () => {
  const body = 'http://acme.localhost:8787/t/first is where this was answered.';
  const lines = 'http://acme.localhost:8787/t/first\n\nSee there.';
  assert.deepEqual(toPathForm(local, { body, lines }), { body, lines });
  assert.equal(
    toPathForm(local, 'http://acme.localhost:8787/t/first?q=a+b'),
    'http://localhost:8787/c/acme/t/first?q=a+b',
  );
});

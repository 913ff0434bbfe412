import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownToText, renderMarkdown } from '../../src/domain/markdown.ts';

test('Markdown renders to HTML with safe, nofollow links', () => {
  const html = renderMarkdown(
    '**Bold** and [docs](https://example.org/a?b=1) and https://auto.example',
  );
  assert.match(html, /<strong>Bold<\/strong>/);
  assert.match(
    html,
    /<a href="https:\/\/example.org\/a\?b=1" rel="nofollow noopener noreferrer ugc">docs<\/a>/,
  );
  assert.match(html, /<a href="https:\/\/auto.example" rel="nofollow noopener noreferrer ugc">/);
});

test('raw HTML never passes through and script URLs never become links', () => {
  const attacks = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](vbscript:msgbox(1))',
    '![x](javascript:alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '<a href="javascript:alert(1)">x</a>',
  ];
  for (const source of attacks) {
    const html = renderMarkdown(source);
    // Text may mention these words (escaped); what must never appear is a live tag or attribute.
    assert.doesNotMatch(
      html,
      /<script|<[a-z][^>]*\son\w+=|<a\s[^>]*href="(javascript|vbscript|data):|<img\s[^>]*src="javascript:/i,
      source,
    );
  }
  assert.match(renderMarkdown('<b>hi</b>'), /&lt;b&gt;hi&lt;\/b&gt;/);
});

test('e-mail addresses are not turned into mailto links; code keeps its language class', () => {
  assert.doesNotMatch(renderMarkdown('write to someone@example.org'), /mailto:/);
  assert.match(
    renderMarkdown('```ts\nconst x = 1 < 2;\n```'),
    /<code class="language-ts">const x = 1 &lt; 2;/,
  );
});

test('plain text of a body strips markup', () => {
  assert.equal(
    markdownToText('# Title\n\nSome **bold** `code` & <tags>'),
    'Title Some bold code & <tags>',
  );
});

test('images from anywhere are shown as links, never loaded by the reader’s browser', () => {
  const html = renderMarkdown(
    'Look: ![the chart](https://attacker.example/track.png?u=1) and ![](http://cdn.example/a.gif)',
  );
  assert.doesNotMatch(html, /<img/i);
  assert.match(
    html,
    /<a href="https:\/\/attacker.example\/track.png\?u=1" rel="nofollow noopener noreferrer ugc">Image: the chart \(attacker.example\)<\/a>/,
  );
  assert.match(
    html,
    /<a href="http:\/\/cdn.example\/a.gif" rel="nofollow noopener noreferrer ugc">Image: untitled \(cdn.example\)<\/a>/,
  );
});

test("only the community's own uploaded images are shown, with their size; others stay links", () => {
  const own = 'http://acme.localhost:8787/uploads/0b6f3a52-4a4e-4c1e-9d51-3b7a2f0c9e11/chart.png';
  const images = new Map([[own, { width: 640, height: 480 }]]);
  const html = renderMarkdown(
    [
      `![chart](${own})`,
      '![tracker](https://elsewhere.example/pixel.png)',
      `![other](${own.replace('acme.', 'beta.')})`,
      '<img src=x onerror=alert(1)>',
    ].join('\n\n'),
    images,
  );
  assert.match(
    html,
    new RegExp(`<img src="${own}" alt="chart" width="640" height="480" loading="lazy" />`),
  );
  assert.equal((html.match(/<img/g) ?? []).length, 1, 'one image shown');
  assert.match(html, />Image: tracker \(elsewhere\.example\)<\/a>/);
  assert.match(html, />Image: other \(beta\.localhost:8787\)<\/a>/);
  assert.doesNotMatch(html, /<img[^>]*onerror/, 'raw HTML stays text');
  assert.doesNotMatch(renderMarkdown(`![chart](${own})`), /<img/, 'without the write naming it');
});

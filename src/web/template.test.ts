// The html template escapes whatever it is handed as text, in content and in attributes; only Html
// values (its own results, or sanitized Markdown through the one door) pass as markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, joinHtml, markupOf, sanitizedHtml, type Html, type HtmlValue } from './template.ts';

const text = (h: Html) => markupOf(h);

test('every character that can open markup or end an attribute is escaped in text', () => {
  assert.equal(
    text(html`<p>${`<script>alert("x") & 'y'</script>`}</p>`),
    '<p>&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;</p>',
  );
  assert.equal(text(html`${'&amp;'}`), '&amp;amp;', 'an entity typed as text stays text');
  assert.equal(text(html`${'plain words, no specials: é ✓'}`), 'plain words, no specials: é ✓');
});

test('attribute values cannot be closed or left by what they hold', () => {
  const evil = `x" onmouseover="alert(1)' data-x='<>&`;
  assert.equal(
    text(html`<a href="${evil}" title='${evil}'>t</a>`),
    '<a href="x&quot; onmouseover=&quot;alert(1)&#39; data-x=&#39;&lt;&gt;&amp;" title=\'x&quot; onmouseover=&quot;alert(1)&#39; data-x=&#39;&lt;&gt;&amp;\'>t</a>',
  );
});

test('numbers show as written; null, undefined and false as nothing', () => {
  assert.equal(text(html`<b>${0}</b><b>${42.5}</b><b>${-1}</b>`), '<b>0</b><b>42.5</b><b>-1</b>');
  assert.equal(text(html`<i>${null}${undefined}${false}</i>`), '<i></i>');
  const shown = (on: boolean) => text(html`<p>${on && html`<em>on</em>`}</p>`);
  assert.equal(shown(true), '<p><em>on</em></p>');
  assert.equal(shown(false), '<p></p>');
});

test('nested Html is kept as it is, and its own interpolations stay escaped', () => {
  const inner = html`<em>${'<b>'}</em>`;
  assert.equal(text(html`<p>${inner}</p>`), '<p><em>&lt;b&gt;</em></p>');
  assert.equal(
    text(html`<div>${html`<p>${html`<span>${'"'}</span>`}</p>`}</div>`),
    '<div><p><span>&quot;</span></p></div>',
  );
});

test('arrays are their items in order, each escaped or kept by its kind, nested arrays too', () => {
  const items: HtmlValue[] = [html`<li>a</li>`, '<li>b</li>', [html`<li>c</li>`, null, 3]];
  assert.equal(
    text(html`<ul>${items}</ul>`),
    '<ul><li>a</li>&lt;li&gt;b&lt;/li&gt;<li>c</li>3</ul>',
  );
  assert.equal(text(html`<ul>${[]}</ul>`), '<ul></ul>');
  assert.equal(text(joinHtml([html`<a>1</a>`, 'x&y'], html`<br>`)), '<a>1</a><br>x&amp;y');
  assert.equal(text(joinHtml(['a', 'b'], ' & ')), 'a &amp; b', 'a text separator is escaped');
});

test('sanitized Markdown passes through its one door; a plain string never does', () => {
  const rendered = '<p>Use <code>x &lt; y</code></p>';
  assert.equal(
    text(html`<div class="post-body">${sanitizedHtml(rendered)}</div>`),
    `<div class="post-body">${rendered}</div>`,
  );
  assert.equal(
    text(html`<div>${rendered}</div>`),
    '<div>&lt;p&gt;Use &lt;code&gt;x &amp;lt; y&lt;/code&gt;&lt;/p&gt;</div>',
  );
  // Something shaped like Html but not made here is not Html: the types refuse it, and so does
  // the template at run time.
  const fake = { toString: () => '<script>' } as unknown as HtmlValue;
  assert.throws(() => html`${fake}`, TypeError);
  assert.throws(() => html`${true as unknown as HtmlValue}`, TypeError);
  // Called as a function with a list of strings, it refuses: its literal parts must be source.
  const strings = ['<script>alert(1)</script>'] as unknown as TemplateStringsArray;
  assert.throws(() => html(strings), TypeError);
});

test('an Html never turns into text by accident; markupOf reads it on purpose', () => {
  const h = html`<b>${'x'}</b>`;
  assert.throws(() => `${h as unknown as string}`, TypeError);
  assert.throws(() => String(h), TypeError);
  assert.throws(() => [h].join(''), TypeError);
  assert.equal(markupOf(h), '<b>x</b>');
});

test('a template with nothing interpolated is its markup, newlines and all', () => {
  assert.equal(
    text(html`<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>
<p>x</p>`),
    '<svg viewBox="0 0 1 1"><path d="M0 0"/></svg>\n<p>x</p>',
  );
});

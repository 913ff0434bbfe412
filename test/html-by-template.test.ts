// HTML is built only by the auto-escaping template (src/web/template.ts), checked on the syntax of
// every source file: no file outside it defines or calls an HTML escaper, and no plain string or
// untagged template holds markup (which is how markup gets built by concatenation). As far as a
// check of the syntax can tell: a tag spelled in pieces, or text escaped by other means, passes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const TEMPLATE = 'src/web/template.ts';

/**
 * Files that may still build markup their own way, each with why. The list only shrinks.
 * Atom and sitemaps are XML, not HTML: their one escaper is atom.ts's xml(). The domain cannot
 * import the web's template (layers point down); its mail bodies and the "too large" notice of a
 * rendered post still escape by hand until the template moves below the domain.
 */
const EXCEPTIONS = new Map<string, string>([
  ['src/web/atom.ts', 'XML (Atom, sitemaps) with its own escaper'],
  ['src/domain/mail/message.ts', 'the escaper of mail HTML, in the domain'],
  ['src/domain/mail/account-mails.ts', 'mail HTML, in the domain'],
  ['src/domain/mail/notification-mail.ts', 'mail HTML, in the domain'],
  ['src/domain/mail/digest-mail.ts', 'mail HTML, in the domain'],
  ['src/domain/rendering.ts', 'the fallback of a post too large to render, in the domain'],
]);

/**
 * The HTML elements Hamlet writes. A literal is markup when it holds a closing tag of one, an opening
 * tag with attributes, or a doctype; a bare "<code>" or "<path>" may be a placeholder in a message.
 */
const ELEMENTS =
  'a|abbr|article|aside|b|blockquote|body|br|button|caption|code|dd|del|details|div|dl|dt|em|fieldset|footer|form|h[1-6]|head|header|hr|html|i|img|input|ins|label|legend|li|link|main|mark|meta|nav|ol|optgroup|option|p|path|pre|script|section|select|small|span|strong|style|summary|svg|table|tbody|td|textarea|tfoot|th|thead|time|title|tr|u|ul';
const TAG = new RegExp(`<!doctype|</(?:${ELEMENTS})>|<(?:${ELEMENTS})\\s[^<>]*=`, 'i');
/** An escaper's replacement text: what only code that escapes HTML by hand spells alone. */
const ENTITY = /^&(?:amp|lt|gt|quot|#39|#x27|apos);$/;
const ESCAPER_NAME = /^esc(?:ape)?(?:html)?$/i;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** What in `file` builds HTML outside the template: each as "line: what". */
export function handBuiltHtml(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(
      `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`,
    );
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      if (ESCAPER_NAME.test(node.expression.text)) at(node, `calls ${node.expression.text}()`);
    } else if (
      (ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.name &&
      ts.isIdentifier(node.name) &&
      ESCAPER_NAME.test(node.name.text)
    ) {
      at(node, `defines ${node.name.text}`);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (ENTITY.test(node.text)) at(node, `escapes by hand ('${node.text}')`);
      else if (TAG.test(node.text) && !isHtmlTagged(node)) at(node, 'markup in a plain string');
    } else if (ts.isTemplateExpression(node) && !isHtmlTagged(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      if (parts.some((p) => TAG.test(p))) at(node, 'markup in an untagged template');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether a template is the html`…` tag's own (a string literal never is). */
function isHtmlTagged(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    parent !== undefined &&
    ts.isTaggedTemplateExpression(parent) &&
    ts.isIdentifier(parent.tag) &&
    parent.tag.text === 'html'
  );
}

test('HTML is built only by the html template: no escaper, no markup in plain strings elsewhere', () => {
  const found = sourceFiles('src')
    .filter((f) => f !== TEMPLATE && !EXCEPTIONS.has(f))
    .flatMap((f) => handBuiltHtml(f, readFileSync(f, 'utf8')));
  assert.deepEqual(found, [], `HTML built outside the template:\n${found.join('\n')}`);
});

test('the check sees what it is for: escapers, concatenated tags, untagged templates', () => {
  const sample = [
    "function esc(t: string) { return t.replace(/&/g, '&amp;'); }",
    'const a = "<p>" + esc(name) + "</p>";',
    'const b = `<li>${name}</li>`;',
    'const c = \'<span class="x">\' + name;',
    'const ok = html`<p>${name}</p>`;',
    "const text = 'Use <slug>, <code> and a < b';",
    'const d = `<input type="hidden" name="x">`;',
  ].join('\n');
  assert.deepEqual(
    handBuiltHtml('sample.ts', sample).map((f) => f.replace(/^sample\.ts:/, '')),
    [
      '1: defines esc',
      "1: escapes by hand ('&amp;')",
      '2: calls esc()',
      '2: markup in a plain string',
      '3: markup in an untagged template',
      '4: markup in a plain string',
      '7: markup in a plain string',
    ],
  );
});

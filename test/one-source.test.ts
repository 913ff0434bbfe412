// Each fact of the catalogue stated once, checked in the source: web pages read results by the
// operations' own output types (no hand-written copy of an output), faces name operations by their
// objects (never by a name string), what each error code answers is the one table's (ERROR_ANSWERS
// in src/domain/errors.ts), no face reads zod's private internals, and web forms take their limits
// from the field table (src/domain/fields.ts), never from a number of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Each line of `files` that matches one of `patterns`, as "file:line: text". */
function matching(files: string[], patterns: RegExp[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (patterns.some((p) => p.test(line))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

const web = sourceFiles('src/web');
const faces = [...web, ...sourceFiles('src/http'), ...sourceFiles('src/surfaces')];
const CODES = 'unauthorized|forbidden|not_found|invalid_argument|conflict|rate_limited|unavailable';

test('web pages restate no output type: they read results by the operations’ own types', () => {
  assert.deepEqual(
    matching(web, [
      /\btype \w+Out\b\s*=/,
      /Record<string, any>/,
      /\bas Array<\{/,
      /\bas \w+Out\b/,
      /value(\.\w+)* as \{/,
    ]),
    [],
  );
});

test('faces name the operations they run by their objects, never by a name string', () => {
  assert.deepEqual(
    matching(faces, [/operationNamed\(/, /call\(deps, \w+, '(community|network)'/]),
    [],
  );
  const routes = readFileSync('src/http/rest/routes.ts', 'utf8');
  assert.doesNotMatch(routes, /\(\s*'[a-z_]+',\s*'(get|post|put|patch|delete)'/);
});

test('what an error code answers is stated once, in the error table', () => {
  const elsewhere = sourceFiles('src').filter((f) => !f.endsWith('src/domain/errors.ts'));
  assert.deepEqual(
    matching(elsewhere, [
      new RegExp(`\\b(${CODES})\\b'?\\s*:\\s*(\\d{3}\\b|ErrorCode\\.)`),
      new RegExp(`case '(${CODES})':\\s*$`),
      new RegExp(`\\.code === '(${CODES})' \\? \\d{3} : \\d{3}`),
    ]),
    [],
  );
});

test('no face reads zod’s private internals', () => {
  assert.deepEqual(matching(faces, [/\._zod\b/]), []);
});

test('web forms take their limits from the field table', () => {
  assert.deepEqual(
    matching(web, [
      /(maxlength|minlength|min|max)="\d/,
      /\d+ to [\d,]+ characters/,
      /At least \d+ characters/,
      /Up to \d+,/,
    ]),
    [],
  );
});

// The MCP configuration's names: a prompt or a skill may not take a built-in name or one listed
// before it, and a skill's files may not repeat a path; each refusal names its place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { communityMcpConfigSchema } from './community-mcp.ts';

const issues = (config: unknown) => {
  const r = communityMcpConfigSchema.safeParse(config);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

test('repeated and built-in names of prompts and skills, and repeated file paths, are refused in order', () => {
  const skill = (name: string, paths: string[] = []) => ({
    name,
    description: 'd',
    body: 'b',
    files: paths.map((path) => ({ path, text: 't' })),
  });
  const prompt = (name: string) => ({ name, description: 'd', template: 'x' });
  assert.deepEqual(
    issues({
      skills: [
        skill('mine', ['a.md', 'b.md', 'a.md']),
        skill('community-guidelines'),
        skill('mine', ['c.md']),
      ],
    }),
    [
      'skills.0.files.2.path: "a.md" appears twice',
      'skills.1.name: "community-guidelines" is taken (built-in skills and names must be unique)',
      'skills.2.name: "mine" is taken (built-in skills and names must be unique)',
    ],
  );
  assert.deepEqual(issues({ skills: [skill('one', ['a.md']), skill('two', ['a.md'])] }), []);
  const twice = issues({ prompts: [prompt('triage'), prompt('triage')] });
  assert.deepEqual(twice, [
    'prompts.1.name: "triage" is taken (built-in prompts and names must be unique)',
  ]);
});

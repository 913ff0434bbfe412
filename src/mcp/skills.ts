// The Skills extension (io.modelcontextprotocol/skills, SEP-2640): a skill is a SKILL.md (YAML
// frontmatter with at least name and description, then markdown instructions) and perhaps files
// beside it, served as resources under skill://<name>/. skills/list gives every skill's entry (its
// SKILL.md URI, the frontmatter as an object, and each file's URI, SHA-256 digest and size);
// skills/get gives one entry by its URI (-32602 for any other); resources/directory/read lists what
// a skill's directory holds (files, and subdirectories as inode/directory). A surface declares the
// extension (with directoryRead) by having a `skills` list, even an empty one; withSkills adds its
// files to the surface's resources.
import { createHash } from 'node:crypto';
import { ErrorCode, RpcError } from './jsonrpc.ts';
import type { ResourceDef, SkillDef, Surface } from './surface.ts';

export type { SkillDef, SkillFile } from './surface.ts';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_METHODS = new Set(['skills/list', 'skills/get', 'resources/directory/read']);
/** The MIME type of a directory in a resources/directory/read listing. */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** A skill's name: 1-64 of a-z, 0-9 and single hyphens, not at either end (the Agent Skills rule). */
export const SKILL_NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

type SkillEntry = {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
};

type Built = { entry: SkillEntry; resources: ResourceDef[] };
const built = new WeakMap<SkillDef, Built>();

/** The surface with its skills declared and their files served as resources. */
export function withSkills(surface: Surface, skills: SkillDef[]): Surface {
  return {
    ...surface,
    skills,
    resources: [...surface.resources, ...skills.flatMap((s) => build(s).resources)],
  };
}

/** skills/list (one page: an entry is never split) and skills/get. */
export async function serveSkills(
  method: string,
  params: Record<string, unknown>,
  surface: Surface,
): Promise<Record<string, unknown>> {
  const skills = surface.skills ?? [];
  if (!surface.skills)
    throw new RpcError(ErrorCode.MethodNotFound, `Unknown method: ${method} (no skills here).`);
  if (method === 'skills/list') return { skills: skills.map((s) => build(s).entry) };
  const uri = params.uri;
  if (typeof uri !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, `${method} needs params.uri.`);
  if (method === 'resources/directory/read') return directory(skills, uri);
  const skill = skills.find((s) => build(s).entry.uri === uri);
  if (!skill) throw new RpcError(ErrorCode.InvalidParams, `Unknown skill: ${uri}`, { uri });
  return { skill: build(skill).entry };
}

/** The direct children of a skill's directory (or of a directory within it); -32602 for anything else. */
function directory(skills: SkillDef[], uri: string): Record<string, unknown> {
  const dir = uri.replace(/\/+$/, '');
  const files = skills.flatMap((s) => build(s).resources);
  const children = new Map<string, { uri: string; name: string; mimeType: string }>();
  for (const f of files) {
    if (!f.uri.startsWith(`${dir}/`)) continue;
    const [first, ...rest] = f.uri.slice(dir.length + 1).split('/');
    const child = `${dir}/${first}`;
    children.set(
      child,
      rest.length
        ? { uri: child, name: first!, mimeType: DIRECTORY_MIME_TYPE }
        : { uri: child, name: first!, mimeType: f.mimeType ?? 'text/markdown' },
    );
  }
  if (!children.size || !skills.some((s) => dir.startsWith(`skill://${s.name}`)))
    throw new RpcError(ErrorCode.InvalidParams, `Not a skill directory: ${uri}`, { uri });
  return { resources: [...children.values()] };
}

/** SKILL.md's text: frontmatter (strings JSON-quoted, which YAML reads as they are), then the body. */
export function skillMarkdown(skill: SkillDef): string {
  const lines = [
    '---',
    `name: ${JSON.stringify(skill.name)}`,
    `description: ${JSON.stringify(skill.description)}`,
  ];
  const metadata = Object.entries(skill.metadata ?? {});
  if (metadata.length) {
    lines.push('metadata:');
    for (const [k, v] of metadata) lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  }
  lines.push('---', '', skill.body.trimEnd(), '');
  return lines.join('\n');
}

function build(skill: SkillDef): Built {
  let b = built.get(skill);
  if (b) return b;
  const base = `skill://${skill.name}`;
  const files = [
    { uri: `${base}/SKILL.md`, text: skillMarkdown(skill), mimeType: 'text/markdown' },
    ...(skill.files ?? []).map((f) => ({
      uri: `${base}/${f.path}`,
      text: f.text,
      mimeType: f.mimeType ?? 'text/markdown',
    })),
  ];
  const frontmatter: Record<string, unknown> = {
    name: skill.name,
    description: skill.description,
  };
  if (skill.metadata && Object.keys(skill.metadata).length)
    frontmatter.metadata = { ...skill.metadata };
  b = {
    entry: {
      uri: `${base}/SKILL.md`,
      frontmatter,
      resources: files.map((f) => {
        const bytes = Buffer.from(f.text, 'utf8');
        return {
          uri: f.uri,
          digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
          size: bytes.length,
        };
      }),
    },
    resources: files.map((f, i) => ({
      uri: f.uri,
      // SKILL.md is listed under the skill's own name and description.
      name: i === 0 ? skill.name : `${skill.name}/${f.uri.slice(base.length + 1)}`,
      ...(i === 0 ? { description: skill.description } : {}),
      mimeType: f.mimeType,
      read: async () => [{ uri: f.uri, mimeType: f.mimeType, text: f.text }],
    })),
  };
  built.set(skill, b);
  return b;
}

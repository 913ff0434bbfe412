// What a server declares it can do, per era: the base capabilities every surface has, and the
// extensions this surface serves: Skills wherever it has skills, Tasks in the 2026-07-28 era when
// one of its tools can run as a task (the extension is not defined for older protocol versions).
import type { Era } from './context.ts';
import { SKILLS_EXTENSION } from './skills.ts';
import type { Surface } from './surface.ts';
import { TASKS_EXTENSION } from './tasks.ts';

export function capabilitiesOf(surface: Surface, era: Era): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    completions: {},
    logging: {},
  };
  const extensions: Record<string, Record<string, unknown>> = {};
  if (surface.skills) extensions[SKILLS_EXTENSION] = { directoryRead: true };
  if (era === 'modern' && surface.tools.some((t) => t.taskSupport))
    extensions[TASKS_EXTENSION] = {};
  if (Object.keys(extensions).length) capabilities.extensions = extensions;
  return capabilities;
}

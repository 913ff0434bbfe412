// Community settings for administrators: name, description, guidelines and visibility
// (update_community_settings); the approval policy per kind of write (set_approval_policy); and the
// MCP configuration as its JSON document, with a preview of the surface an agent will see before it
// is saved (set_mcp_config validates it with the same schema).
import type { Context, Hono } from 'hono';
import { BUILT_IN_PROMPTS } from '../../domain/community-mcp.ts';
import { POLICY_MODES, WRITE_KINDS } from '../../domain/vocabulary.ts';
import { getMcpConfig, setMcpConfig } from '../../operations/admin.ts';
import { getPolicies, setPolicy } from '../../operations/approvals.ts';
import { COMMUNITY_TOOLS } from '../../operations/catalogue.ts';
import { listedAsTool, type OutputOf } from '../../operations/operation.ts';
import { getCommunitySettings, updateCommunitySettings } from '../../operations/web-communities.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type WebDeps, type WebEnv } from '../context.ts';
import { failureSummary, field, formArgs, text, type FormData } from '../forms.ts';
import { postForm } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { adminGate, adminNav } from './admin.ts';
import { html, type Html } from '../template.ts';

/** The MCP configuration document as get_mcp_config returns it. */
type McpConfig = OutputOf<typeof getMcpConfig>;

const KIND_LABEL: Record<string, string> = {
  'topic.create': 'New questions',
  'post.create': 'Replies',
  'solution.mark': 'Accepting answers',
  'article.write': 'Articles',
};

/** What an agent connecting to this community's MCP server will see with `config`. */
function surfacePreview(config: McpConfig): Html {
  const tools =
    config.tool_mode === 'two-tool'
      ? [
          {
            name: 'search',
            title: `Find a tool by what it does (up to ${config.search_limit} results)`,
          },
          { name: 'execute', title: 'Run a tool found with search: {tool, inputs}' },
        ]
      : COMMUNITY_TOOLS.filter((op) => listedAsTool(op, config.toolsets)).map((op) => ({
          name: op.name,
          title: op.title,
        }));
  const prompts = [
    ...BUILT_IN_PROMPTS.map((p) => ({ name: p, description: 'built in' })),
    ...config.prompts.map((p) => ({ name: p.name, description: p.description ?? '' })),
  ];
  return html`<section class="preview" aria-labelledby="preview-title"><h3 id="preview-title">What an agent will see</h3>
<p><strong>${tools.length} tools</strong> (${config.tool_mode} mode):</p><ul>${tools.map((t) => html`<li><code>${t.name}</code>: ${t.title}</li>`)}</ul>
<p><strong>${prompts.length} prompts</strong>:</p><ul>${prompts.map((p) => html`<li><code>${p.name}</code>${p.description ? `: ${p.description}` : ''}</li>`)}</ul>
${config.instructions ? html`<p><strong>Added to the instructions</strong>:</p><pre>${config.instructions}</pre>` : html`<p>No instructions added.</p>`}</section>`;
}

type State = {
  failure?: Failure;
  section?: 'settings' | 'policies' | 'mcp';
  values?: FormData;
  mcpText?: string;
  preview?: McpConfig;
};

async function settingsPage(c: Context<WebEnv>, deps: WebDeps, s: State = {}): Promise<Response> {
  const web = c.get('web');
  const [settings, policies, mcp] = await Promise.all([
    call(deps, web, getCommunitySettings, {}),
    call(deps, web, getPolicies, {}),
    call(deps, web, getMcpConfig, {}),
  ]);
  if (!settings.ok) return failurePage(c, web, settings);
  if (!policies.ok) return failurePage(c, web, policies);
  if (!mcp.ok) return failurePage(c, web, mcp);
  const st = settings.value;
  const f = (section: State['section']) => (s.section === section ? s.failure : undefined);
  const val = (name: string, fallback: string) =>
    s.section === 'settings' && s.values ? text(s.values, name) : fallback;
  const policyFields = WRITE_KINDS.map((k) =>
    field({
      name: k,
      label: KIND_LABEL[k]!,
      value: policies.value[k],
      options: POLICY_MODES.map((m) => ({
        value: m,
        label: m === 'auto' ? 'Published at once' : 'Queued for a moderator',
      })),
    }),
  );
  const mcpText = s.mcpText ?? JSON.stringify(mcp.value, null, 2);
  // Whichever form failed, its summary comes first on the page, linked to the fields to fix.
  const labels = {
    config: 'Configuration (JSON)',
    name: 'Name',
    description: 'Description',
    guidelines: 'Guidelines',
    visibility: 'Visibility',
    ...KIND_LABEL,
  };
  const body = html`<h1>Settings</h1>${adminNav(web, '/admin/settings')}${failureSummary(s.failure, labels)}
<h2 id="community">Community</h2>
${postForm(
  web,
  href(web, '/admin/settings'),
  html`${field({ name: 'name', label: 'Name', value: val('name', st.name), required: true }, f('settings')?.issues)}
${field({ name: 'description', label: 'Description', rows: 2, value: val('description', st.description) }, f('settings')?.issues)}
${field({ name: 'guidelines', label: 'Guidelines', hint: 'Markdown. Agents read them too.', rows: 6, value: val('guidelines', st.guidelines) }, f('settings')?.issues)}
${field(
  {
    name: 'visibility',
    label: 'Visibility',
    hint: 'Private: members and this community’s agents only; never visible through the network.',
    value: val('visibility', st.visibility),
    options: [
      { value: 'public', label: 'Public' },
      { value: 'private', label: 'Private' },
    ],
  },
  f('settings')?.issues,
)}
<div class="actions"><button type="submit">Save settings</button></div>`,
)}
<h2 id="policies">Approval policies</h2><p>Writes by members and agents; moderators and trusted agents always publish at once.</p>
${postForm(web, href(web, '/admin/settings/policies'), html`${policyFields}<div class="actions"><button type="submit">Save policies</button></div>`)}
<h2 id="mcp">MCP configuration</h2>
${postForm(
  web,
  href(web, '/admin/settings/mcp'),
  html`${field({ name: 'config', label: 'Configuration (JSON)', hint: 'tool_mode ("full" or "two-tool"), search_limit, instructions, prompts. Connected agents hear about a change.', rows: 12, value: mcpText }, f('mcp')?.issues)}
<div class="actions"><button type="submit" name="action" value="preview" class="secondary">Preview</button><button type="submit" name="action" value="save">Save configuration</button></div>`,
)}
${surfacePreview(s.preview ?? mcp.value)}`;
  return page(c, web, { title: 'Settings', body, status: s.failure ? 400 : 200 });
}

function invalid(message: string, path: string): Failure {
  return {
    ok: false,
    stage: 'validate',
    code: 'invalid_argument',
    message,
    issues: [{ path, message }],
  };
}

export function settingsRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin/settings', (c) => adminGate(c) ?? settingsPage(c, deps));

  app.post('/admin/settings', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const saved = await call(
      deps,
      web,
      updateCommunitySettings,
      formArgs(updateCommunitySettings, form),
    );
    if (!saved.ok)
      return saved.code === 'invalid_argument'
        ? settingsPage(c, deps, { failure: saved, section: 'settings', values: form })
        : failurePage(c, web, saved);
    return redirectWith(c, deps, href(web, '/admin/settings'), {
      kind: 'ok',
      text: `Settings saved: the community is ${saved.value.visibility}.`,
    });
  });

  app.post('/admin/settings/policies', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    for (const kind of WRITE_KINDS) {
      const set = await call(deps, web, setPolicy, {
        kind,
        mode: text(form, kind),
      });
      if (!set.ok)
        return set.code === 'invalid_argument'
          ? settingsPage(c, deps, { failure: set, section: 'policies' })
          : failurePage(c, web, set);
    }
    return redirectWith(c, deps, `${href(web, '/admin/settings')}#policies`, {
      kind: 'ok',
      text: 'Approval policies saved.',
    });
  });

  app.post('/admin/settings/mcp', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const raw = text(form, 'config');
    let config: unknown;
    try {
      config = JSON.parse(raw);
    } catch (err) {
      return settingsPage(c, deps, {
        section: 'mcp',
        mcpText: raw,
        failure: invalid(`This is not JSON: ${(err as Error).message}`, 'config'),
      });
    }
    if (text(form, 'action') === 'preview') {
      const parsed = setMcpConfig.input.safeParse({ config });
      if (!parsed.success)
        return settingsPage(c, deps, {
          section: 'mcp',
          mcpText: raw,
          failure: invalid(
            parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
            'config',
          ),
        });
      return settingsPage(c, deps, {
        section: 'mcp',
        mcpText: raw,
        preview: parsed.data.config,
      });
    }
    const saved = await call(deps, web, setMcpConfig, { config });
    if (!saved.ok) {
      const issues = saved.issues?.map((i) => ({
        path: 'config',
        message: `${i.path}: ${i.message}`,
      }));
      return saved.code === 'invalid_argument'
        ? settingsPage(c, deps, { section: 'mcp', mcpText: raw, failure: { ...saved, issues } })
        : failurePage(c, web, saved);
    }
    return redirectWith(c, deps, `${href(web, '/admin/settings')}#mcp`, {
      kind: 'ok',
      text: 'MCP configuration saved: connected agents were told their lists changed.',
    });
  });
}

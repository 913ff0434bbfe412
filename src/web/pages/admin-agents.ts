// Agents and their keys, for administrators: create an agent with scopes (its first key is shown
// once, on the answer to the form, never again), change its scopes and trust, mint more keys, see
// each key by prefix with when it was last used, revoke one (it stops working at once).
import type { Context, Hono } from 'hono';
import { sanctionControl } from './review.ts';
import { SCOPES } from '../../domain/vocabulary.ts';
import {
  createAgent,
  listAgentKeys,
  listAgents,
  mintAgentKey,
  revokeAgentKey,
  updateAgent,
} from '../../operations/admin.ts';
import type { OutputOf } from '../../operations/operation.ts';
import type { Failure } from '../../operations/pipeline.ts';
import { call, href, type Web, type WebDeps, type WebEnv } from '../context.ts';
import {
  checkbox,
  checkboxes,
  checkedValues,
  failureSummary,
  field,
  formArgs,
  text,
  type FormData,
} from '../forms.ts';
import { postForm, when } from '../html.ts';
import { failurePage, page, redirectWith } from '../respond.ts';
import { daysAttrs, keyTable, shownOnce } from './account.ts';
import { adminGate, adminNav } from './admin.ts';
import { copyable, mcpUrls } from './copyable.ts';
import { html, joinHtml, type Html } from '../template.ts';

type Agent = OutputOf<typeof listAgents>['agents'][number];
type AgentKey = OutputOf<typeof listAgentKeys>['keys'][number];

const SCOPE_OPTIONS = SCOPES.map((s) => ({ value: s, label: s }));

function agentSection(web: Web, a: Agent, keys: AgentKey[]): Html {
  const mine = keys.filter((k) => k.agent_id === a.id);
  return html`<section class="queued" aria-labelledby="agent-${a.id}"><h2 id="agent-${a.id}">${a.name}</h2>
<p class="meta">Since ${when(a.created_at)} · ${a.trusted ? 'trusted: its writes skip the approval queue' : 'its writes follow the approval policy'} · scopes: ${
    a.scopes.length
      ? joinHtml(
          a.scopes.map((s) => html`<code>${s}</code>`),
          ' ',
        )
      : 'read only'
  }</p>
${keyTable(web, mine, href(web, '/admin/agents/keys/revoke'), `Keys of ${a.name}`)}
${postForm(web, href(web, '/admin/agents/keys'), html`<input type="hidden" name="agent" value="${a.id}"><button type="submit" class="secondary">Mint a new key for ${a.name}</button>`)}
<details><summary>Change the access of ${a.name}</summary>
${postForm(
  web,
  href(web, '/admin/agents/access'),
  html`<input type="hidden" name="agent" value="${a.id}">${checkboxes('scopes', 'Scopes', SCOPE_OPTIONS, a.scopes, undefined, `f-scopes-${a.id}`)}${checkbox('trusted', 'Trusted (writes skip the approval queue)', a.trusted, `f-trusted-${a.id}`)}
<div class="actions"><button type="submit">Save access</button></div>`,
)}</details>${sanctionControl(web, 'agent', a.id, a.name, '/admin/agents')}</section>`;
}

async function agentsPage(
  c: Context<WebEnv>,
  deps: WebDeps,
  o: { minted?: { key: string; agent: string }; failure?: Failure; values?: FormData } = {},
): Promise<Response> {
  const web = c.get('web');
  const [agents, keys] = await Promise.all([
    call(deps, web, listAgents, {}),
    call(deps, web, listAgentKeys, {}),
  ]);
  if (!agents.ok) return failurePage(c, web, agents);
  if (!keys.ok) return failurePage(c, web, keys);
  const values = o.values ?? {};
  const issues = o.failure?.issues;
  const list = agents.value.agents.map((a) => agentSection(web, a, keys.value.keys));
  const urls = mcpUrls(deps, web);
  const body = html`<h1>Agents and keys</h1>${adminNav(web, '/admin/agents')}${failureSummary(o.failure)}
${o.minted ? shownOnce(o.minted.key, `The key of ${o.minted.agent}: give it to the agent as Authorization: Bearer <key>.`) : ''}
<h2 id="connect">Where agents connect</h2>
<p>With an agent key (<code>Authorization: Bearer &lt;key&gt;</code>), the MCP endpoint:</p>${copyable(urls.keyed, 'mcp-url', 'the MCP endpoint')}
<p>MCP hosts that sign in with OAuth (Claude, ChatGPT, …), the connector URL:</p>${copyable(urls.connector, 'connector-url', 'the connector URL')}
<h2>Agents</h2>
${list.length ? list : html`<p>No agents yet.</p>`}
<h2>Create an agent</h2>
${postForm(
  web,
  href(web, '/admin/agents'),
  html`${field({ name: 'name', label: 'Name', hint: 'A name people recognise, unique in this community.', value: text(values, 'name'), required: true }, issues)}
${checkboxes('scopes', 'Scopes (reading needs none)', SCOPE_OPTIONS, ([] as unknown[]).concat(values.scopes ?? []) as string[], issues)}
${checkbox('trusted', 'Trusted (writes skip the approval queue)', text(values, 'trusted') === 'on')}
${field({ name: 'expires_in_days', label: 'First key expires after (days)', hint: 'Leave empty for a key that does not expire.', type: 'number', value: text(values, 'expires_in_days'), attrs: daysAttrs }, issues)}
<div class="actions"><button type="submit">Create agent</button></div>`,
)}`;
  if (o.minted) c.header('cache-control', 'no-store');
  return page(c, web, { title: 'Agents and keys', body, status: o.failure ? 400 : 200 });
}

export function agentAdminRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  app.get('/admin/agents', (c) => adminGate(c) ?? agentsPage(c, deps));

  app.post('/admin/agents', async (c) => {
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const created = await call(deps, c.get('web'), createAgent, formArgs(createAgent, form));
    if (!created.ok)
      return created.code === 'invalid_argument' || created.code === 'conflict'
        ? agentsPage(c, deps, { failure: created, values: form })
        : failurePage(c, c.get('web'), created);
    return agentsPage(c, deps, {
      minted: { key: created.value.key, agent: created.value.agent.name },
    });
  });

  app.post('/admin/agents/keys', async (c) => {
    const form = (await c.req.parseBody({ all: true })) as FormData;
    const web = c.get('web');
    const minted = await call(deps, web, mintAgentKey, formArgs(mintAgentKey, form));
    if (!minted.ok) return failurePage(c, web, minted);
    const agents = await call(deps, web, listAgents, {});
    const name = agents.ok
      ? agents.value.agents.find((a) => a.id === minted.value.record.agent_id)?.name
      : undefined;
    return agentsPage(c, deps, { minted: { key: minted.value.key, agent: name ?? 'the agent' } });
  });

  app.post('/admin/agents/keys/revoke', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // Revoking asks first, without JavaScript: the same form again with confirm=yes.
    if (text(form, 'confirm') !== 'yes') {
      const key = text(form, 'key');
      const body = html`<h1>Revoke this key?</h1>
<div class="notice error" role="alert"><p>The key stops working at once: every agent or host using it is refused from then on.</p></div>
${postForm(web, href(web, '/admin/agents/keys/revoke'), html`<input type="hidden" name="key" value="${key}"><input type="hidden" name="confirm" value="yes"><div class="actions"><button type="submit" class="danger">Revoke the key</button> <a href="${href(web, '/admin/agents')}">Cancel</a></div>`)}`;
      return page(c, web, { title: 'Revoke this key?', body });
    }
    const revoked = await call(deps, web, revokeAgentKey, formArgs(revokeAgentKey, form));
    if (!revoked.ok) return failurePage(c, web, revoked);
    return redirectWith(c, deps, href(web, '/admin/agents'), {
      kind: 'ok',
      text: `The key ${revoked.value.prefix}… was revoked: it stopped working at once.`,
    });
  });

  app.post('/admin/agents/access', async (c) => {
    const web = c.get('web');
    const form = (await c.req.parseBody({ all: true })) as FormData;
    // Unchecked boxes are not sent: no scope checked means no scopes, unchecked "trusted" means not trusted.
    const scopes = checkedValues(form, 'scopes');
    const args = {
      ...formArgs(updateAgent, form),
      scopes,
      trusted: text(form, 'trusted') === 'on',
    };
    const updated = await call(deps, web, updateAgent, args);
    if (!updated.ok)
      return updated.code === 'invalid_argument'
        ? agentsPage(c, deps, { failure: updated })
        : failurePage(c, web, updated);
    return redirectWith(c, deps, href(web, '/admin/agents'), {
      kind: 'ok',
      text: `The access of ${updated.value.name} was saved.`,
    });
  });
}

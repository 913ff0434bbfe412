// The pages of OAuth for people, in the web's layout: the consent page an MCP host sends a person to
// ("Connect Claude to Acme?", the scopes in plain words, where the browser returns to), and the
// connected-apps lists (a person's own; every connection of the community, and which apps may
// connect, for its administrators) with their disconnect buttons.
import type { AuthorizationRequest } from '../domain/oauth/authorize.ts';
import { onlyLoopback } from '../domain/oauth/redirects.ts';
import { READ_WORDS, SCOPE_SHORT, SCOPE_WORDS } from '../domain/oauth/scopes.ts';
import type { Scope } from '../domain/vocabulary.ts';
import { href, type Web } from './context.ts';
import { failureSummary, field } from './forms.ts';
import { postForm, when } from './html.ts';
import type { getAppPolicy, listConnections } from '../operations/oauth.ts';
import type { OutputOf } from '../operations/operation.ts';
import type { Failure } from '../operations/pipeline.ts';
import { html, joinHtml, type Html } from './template.ts';

/** Where the browser goes after the decision, as the person should read it. */
function destination(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? url.host
    : `${url.protocol}//${url.host}`;
}

/** CSP source for the form's redirect after the decision (form-action covers redirects). */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

export function consentBody(
  web: Web,
  request: AuthorizationRequest,
  grantable: readonly Scope[],
): Html {
  const { client, site } = request;
  const from = client.host
    ? html` from <strong>${client.host}</strong>`
    : client.kind === 'dynamic'
      ? ' (it registered itself: Hamlet cannot check who runs it)'
      : ' (registered by an administrator)';
  const warning = onlyLoopback([request.redirectUri])
    ? html`<div class="notice error" role="note"><p>${client.name} returns to an address on your own computer (${destination(request.redirectUri)}). Any program on this computer could claim to be it: allow only if you started connecting it just now.</p></div>`
    : '';
  const hidden = Object.entries(request.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v!}">`);
  const scopes = request.scopes.map((s) =>
    grantable.includes(s)
      ? html`<li><label><input type="checkbox" name="grant" value="${s}" checked> ${SCOPE_WORDS[s]}</label></li>`
      : html`<li class="meta">${SCOPE_WORDS[s]}: not available, your role here does not allow it</li>`,
  );
  return html`<h1>Connect ${client.name} to ${site.community.name}?</h1>
<p>${client.name}${from} asks to act for you, ${web.person?.displayName ?? ''}, in ${site.community.name}.</p>
${warning}
${postForm(
  web,
  href(web, '/oauth/authorize'),
  html`${hidden}
<fieldset><legend>${client.name} will be able to</legend><ul class="scopes">
<li>${READ_WORDS}</li>${scopes}</ul></fieldset>
<p>What it writes is posted in your name, labelled “via ${client.name}”, and the community's approval rules apply to it. Disconnect it any time under <a href="${href(web, '/account/apps')}">Connected apps</a>.</p>
<p class="meta">After you decide, you return to <strong>${destination(request.redirectUri)}</strong>.</p>
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>`,
)}`;
}

/** A connection as list_my_connections and list_connections present it. */
type Connection = OutputOf<typeof listConnections>['connections'][number];

/** "read, ask, reply": what a connection may do, short, with the full words on hover. */
function scopeList(scopes: readonly Scope[]): Html {
  return joinHtml(
    [
      html`<span title="${READ_WORDS}">read</span>`,
      ...scopes.map((s) => html`<span title="${SCOPE_WORDS[s]}">${SCOPE_SHORT[s]}</span>`),
    ],
    ', ',
  );
}

/** A person's connected apps, or (with `everyone`) every connection of the community. */
export function connectionsTable(
  web: Web,
  connections: Connection[],
  o: { everyone: boolean; revokeAction: (id: string) => string },
): Html {
  if (connections.length === 0) {
    return o.everyone
      ? html`<p>No apps are connected to this community yet.</p>`
      : html`<p>No apps are connected. Apps such as Claude or ChatGPT connect with this community's connector URL, ending in <code>/mcp</code>.</p>`;
  }
  const rows = connections.map(
    (c) =>
      html`<tr><th scope="row" data-label="App">${c.client_name}<br><span class="meta">${c.client_id}</span></th>${o.everyone ? html`<td data-label="Person">${c.person.name}</td>` : ''}
<td data-label="May">${scopeList(c.scopes)}</td><td data-label="Connected">${when(c.connected_at)}</td><td data-label="Last used">${c.last_used_at ? when(c.last_used_at) : 'never'}</td>
<td data-label="Action">${postForm(web, o.revokeAction(c.id), html`<button type="submit" class="danger" aria-label="Disconnect ${c.client_name}${o.everyone ? ` of ${c.person.name}` : ''}">Disconnect</button>`, html`class="inline"`)}</td></tr>`,
  );
  return html`<div class="table-wrap"><table class="data cards"><caption class="meta">${o.everyone ? 'Apps people connected to this community' : 'Apps you connected to this community'}</caption>
<thead><tr><th scope="col">App</th>${o.everyone ? html`<th scope="col">Person</th>` : ''}<th scope="col">May</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="meta">Action</span></th></tr></thead>
<tbody>${joinHtml(rows, '\n')}</tbody></table></div>`;
}

/** The community's client trust policy, as a form for its administrators. */
export function policyForm(
  web: Web,
  policy: Pick<OutputOf<typeof getAppPolicy>, 'allowed_domains'> & { mode: string },
  failure?: Failure,
): Html {
  const modes = [
    { value: 'any', label: 'Any app that identifies itself (metadata document or registration)' },
    { value: 'domains', label: 'Only apps whose metadata document is on the domains below' },
    { value: 'registered', label: 'Only apps an administrator registered' },
  ];
  return html`<h2>Which apps may connect</h2>${failureSummary(failure)}${postForm(
    web,
    href(web, '/admin/apps/policy'),
    html`
${field({ name: 'mode', label: 'Apps allowed', options: modes, value: policy.mode }, failure?.issues)}
${field({ name: 'domains', label: 'Allowed domains', hint: 'Comma-separated, e.g. claude.ai, chatgpt.com (subdomains included).', value: policy.allowed_domains.join(', ') }, failure?.issues)}
<div class="actions"><button type="submit">Save</button></div>`,
  )}`;
}

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
import { esc, postForm, when } from './html.ts';
import type { getAppPolicy, listConnections } from '../operations/oauth.ts';
import type { OutputOf } from '../operations/operation.ts';
import type { Failure } from '../operations/pipeline.ts';

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
): string {
  const { client, site } = request;
  const from = client.host
    ? ` from <strong>${esc(client.host)}</strong>`
    : client.kind === 'dynamic'
      ? ' (it registered itself: Hamlet cannot check who runs it)'
      : ' (registered by an administrator)';
  const warning = onlyLoopback([request.redirectUri])
    ? `<div class="notice error" role="note"><p>${esc(client.name)} returns to an address on your own computer (${esc(destination(request.redirectUri))}). Any program on this computer could claim to be it: allow only if you started connecting it just now.</p></div>`
    : '';
  const hidden = Object.entries(request.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v!)}">`)
    .join('');
  const scopes = request.scopes
    .map((s) =>
      grantable.includes(s)
        ? `<li><label><input type="checkbox" name="grant" value="${esc(s)}" checked> ${esc(SCOPE_WORDS[s])}</label></li>`
        : `<li class="meta">${esc(SCOPE_WORDS[s])}: not available, your role here does not allow it</li>`,
    )
    .join('');
  return `<h1>Connect ${esc(client.name)} to ${esc(site.community.name)}?</h1>
<p>${esc(client.name)}${from} asks to act for you, ${esc(web.person?.displayName ?? '')}, in ${esc(site.community.name)}.</p>
${warning}
${postForm(
  web,
  href(web, '/oauth/authorize'),
  `${hidden}
<fieldset><legend>${esc(client.name)} will be able to</legend><ul class="scopes">
<li>${esc(READ_WORDS)}</li>${scopes}</ul></fieldset>
<p>What it writes is posted in your name, labelled “via ${esc(client.name)}”, and the community's approval rules apply to it. Disconnect it any time under <a href="${esc(href(web, '/account/apps'))}">Connected apps</a>.</p>
<p class="meta">After you decide, you return to <strong>${esc(destination(request.redirectUri))}</strong>.</p>
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></div>`,
)}`;
}

/** A connection as list_my_connections and list_connections present it. */
type Connection = OutputOf<typeof listConnections>['connections'][number];

/** "read, ask, reply": what a connection may do, short, with the full words on hover. */
function scopeList(scopes: readonly Scope[]): string {
  return [
    `<span title="${esc(READ_WORDS)}">read</span>`,
    ...scopes.map((s) => `<span title="${esc(SCOPE_WORDS[s])}">${esc(SCOPE_SHORT[s])}</span>`),
  ].join(', ');
}

/** A person's connected apps, or (with `everyone`) every connection of the community. */
export function connectionsTable(
  web: Web,
  connections: Connection[],
  o: { everyone: boolean; revokeAction: (id: string) => string },
): string {
  if (connections.length === 0) {
    return o.everyone
      ? '<p>No apps are connected to this community yet.</p>'
      : "<p>No apps are connected. Apps such as Claude or ChatGPT connect with this community's connector URL, ending in <code>/mcp</code>.</p>";
  }
  const rows = connections
    .map(
      (
        c,
      ) => `<tr><th scope="row" data-label="App">${esc(c.client_name)}<br><span class="meta">${esc(c.client_id)}</span></th>${o.everyone ? `<td data-label="Person">${esc(c.person.name)}</td>` : ''}
<td data-label="May">${scopeList(c.scopes)}</td><td data-label="Connected">${when(c.connected_at)}</td><td data-label="Last used">${c.last_used_at ? when(c.last_used_at) : 'never'}</td>
<td data-label="Action">${postForm(web, o.revokeAction(c.id), `<button type="submit" class="danger" aria-label="Disconnect ${esc(c.client_name)}${o.everyone ? ` of ${esc(c.person.name)}` : ''}">Disconnect</button>`, 'class="inline"')}</td></tr>`,
    )
    .join('\n');
  return `<div class="table-wrap"><table class="data cards"><caption class="meta">${o.everyone ? 'Apps people connected to this community' : 'Apps you connected to this community'}</caption>
<thead><tr><th scope="col">App</th>${o.everyone ? '<th scope="col">Person</th>' : ''}<th scope="col">May</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="meta">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

/** The community's client trust policy, as a form for its administrators. */
export function policyForm(
  web: Web,
  policy: Pick<OutputOf<typeof getAppPolicy>, 'allowed_domains'> & { mode: string },
  failure?: Failure,
): string {
  const modes = [
    { value: 'any', label: 'Any app that identifies itself (metadata document or registration)' },
    { value: 'domains', label: 'Only apps whose metadata document is on the domains below' },
    { value: 'registered', label: 'Only apps an administrator registered' },
  ];
  return `<h2>Which apps may connect</h2>${failureSummary(failure)}${postForm(
    web,
    href(web, '/admin/apps/policy'),
    `
${field({ name: 'mode', label: 'Apps allowed', options: modes, value: policy.mode }, failure?.issues)}
${field({ name: 'domains', label: 'Allowed domains', hint: 'Comma-separated, e.g. claude.ai, chatgpt.com (subdomains included).', value: policy.allowed_domains.join(', ') }, failure?.issues)}
<div class="actions"><button type="submit">Save</button></div>`,
  )}`;
}

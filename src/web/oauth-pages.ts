// The pages of OAuth for people: the consent page an MCP host sends a person to ("Connect Claude to
// Acme?", the scopes in plain words, where the person returns to), and the connected-apps lists (a
// person's own, and every grant of the community for its administrators) with their disconnect
// buttons. Plain HTML forms; every POST carries the form token.
import type { AuthorizationRequest } from '../domain/oauth/authorize.ts';
import { onlyLoopback } from '../domain/oauth/redirects.ts';
import { READ_WORDS, SCOPE_SHORT, SCOPE_WORDS } from '../domain/oauth/scopes.ts';
import type { Scope } from '../domain/vocabulary.ts';
import { esc } from './html.ts';

function form(action: string, csrf: string, inner: string): string {
  return `<form method="post" action="${esc(action)}"><input type="hidden" name="_csrf" value="${esc(csrf)}">${inner}</form>`;
}

/** Where the browser goes after the decision, as the person should read it. */
function destination(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//${url.host}`;
}

/** CSP source for the form's redirect after the decision (form-action covers redirects). */
export function formActionSource(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

export function consentBody(o: {
  request: AuthorizationRequest;
  grantable: readonly Scope[];
  personName: string;
  action: string;
  csrf: string;
  appsHref: string;
}): string {
  const { client, site } = o.request;
  const from = client.host ? ` from <strong>${esc(client.host)}</strong>` : client.kind === 'dynamic' ? ' (registered itself; Hamlet cannot check who runs it)' : ' (registered by an administrator)';
  const warning = onlyLoopback([o.request.redirectUri])
    ? `<div class="notice warning" role="note"><p>${esc(client.name)} returns to an address on your own computer (${esc(destination(o.request.redirectUri))}). Any program on this computer could claim to be it: allow only if you started connecting it just now.</p></div>`
    : '';
  const hidden = Object.entries(o.request.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v!)}">`)
    .join('');
  const scopes = o.request.scopes
    .map((s) => o.grantable.includes(s)
      ? `<li><label><input type="checkbox" name="grant" value="${esc(s)}" checked> ${esc(SCOPE_WORDS[s])}</label></li>`
      : `<li class="meta">${esc(SCOPE_WORDS[s])}: not available, your role here does not allow it</li>`)
    .join('');
  return `<h1>Connect ${esc(client.name)} to ${esc(site.community.name)}?</h1>
<p>${esc(client.name)}${from} asks to act for you, ${esc(o.personName)}, in ${esc(site.community.name)}.</p>
${warning}
${form(o.action, o.csrf, `${hidden}
<fieldset><legend>${esc(client.name)} will be able to</legend><ul class="scopes">
<li>${esc(READ_WORDS)}</li>${scopes}</ul></fieldset>
<p>What it writes is posted in your name, labelled “via ${esc(client.name)}”, and the community's approval rules apply to it. Disconnect it any time under <a href="${esc(o.appsHref)}">Connected apps</a>.</p>
<p class="meta">After you decide, you return to <strong>${esc(destination(o.request.redirectUri))}</strong>.</p>
<p><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></p>`)}`;
}

/** "read, ask, reply": what a connection may do, short, with the full words on hover. */
function scopeList(scopes: readonly Scope[]): string {
  return ['<span title="' + esc(READ_WORDS) + '">read</span>', ...scopes.map((s) => `<span title="${esc(SCOPE_WORDS[s])}">${esc(SCOPE_SHORT[s])}</span>`)].join(', ');
}

function day(iso: string | null): string {
  return iso ? `<time datetime="${esc(iso)}">${esc(iso.slice(0, 10))}</time>` : 'never';
}

/** A connection as the operations present it (list_my_connections, list_connections). */
export type ConnectionOut = { id: string; client_id: string; client_name: string; scopes: Scope[]; person: { id: string; name: string }; connected_at: string; last_used_at: string | null };

/** A person's connected apps, or (with `everyone`) every grant of the community. */
export function connectionsBody(o: { title: string; connections: ConnectionOut[]; everyone: boolean; revokeAction: (id: string) => string; csrf: string }): string {
  if (o.connections.length === 0) {
    return `<h1>${esc(o.title)}</h1><p>No apps are connected${o.everyone ? ' to this community' : ''}. Apps such as Claude or ChatGPT connect with this community's connector URL, ending in <code>/mcp</code>.</p>`;
  }
  const rows = o.connections
    .map((c) => `<tr><th scope="row">${esc(c.client_name)}<br><span class="meta">${esc(c.client_id)}</span></th>${o.everyone ? `<td>${esc(c.person.name)}</td>` : ''}
<td>${scopeList(c.scopes)}</td><td>${day(c.connected_at)}</td><td>${day(c.last_used_at)}</td>
<td>${form(o.revokeAction(c.id), o.csrf, `<button type="submit" aria-label="Disconnect ${esc(c.client_name)}${o.everyone ? ` of ${esc(c.person.name)}` : ''}">Disconnect</button>`)}</td></tr>`)
    .join('\n');
  return `<h1>${esc(o.title)}</h1>
<table><thead><tr><th scope="col">App</th>${o.everyone ? '<th scope="col">Person</th>' : ''}<th scope="col">May</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="meta">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The community's client trust policy, as a form for its administrators. */
export function policyForm(o: { policy: { mode: string; allowed_domains: string[] }; action: string; csrf: string }): string {
  const option = (value: string, label: string) => `<option value="${value}"${o.policy.mode === value ? ' selected' : ''}>${esc(label)}</option>`;
  return `<h2>Which apps may connect</h2>${form(o.action, o.csrf, `
<p><label for="oauth-mode">Apps allowed</label><br><select id="oauth-mode" name="mode">
${option('any', 'Any app that identifies itself (metadata document or registration)')}
${option('domains', 'Only apps whose metadata document is on the domains below')}
${option('registered', 'Only apps an administrator registered')}</select></p>
<p><label for="oauth-domains">Allowed domains (comma-separated, e.g. claude.ai, chatgpt.com)</label><br>
<input id="oauth-domains" name="domains" value="${esc(o.policy.allowed_domains.join(', '))}" size="50"></p>
<p><button type="submit">Save</button></p>`)}`;
}

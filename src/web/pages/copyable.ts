// A value people copy (a key or secret shown once, a connector URL): selectable text always, and
// beside it a Copy button that scripts/copy.ts reveals and runs (hidden without JavaScript), which
// announces "Copied" in a live region. The layout loads the script on pages that carry one.
import { href, type Web, type WebDeps } from '../context.ts';
import { html, type Html } from '../template.ts';

/** `value` in a code box with its Copy button; `id` names the box, `what` the button's purpose. */
export function copyable(value: string, id: string, what: string, secret = false): Html {
  return html`<p class="copyable"><code class="${secret ? 'secret' : 'value'}" id="${id}">${value}</code> <button type="button" class="secondary copy" data-copy="${id}" hidden>Copy<span class="visually-hidden"> ${what}</span></button> <span class="copy-status" role="status" aria-live="polite"></span></p>`;
}

/**
 * The community's URLs for MCP hosts, in the form the page was reached: the connector URL (OAuth,
 * `/mcp`) and the key endpoint (`/api/mcp`).
 */
export function mcpUrls(deps: WebDeps, web: Web): { connector: string; keyed: string } {
  if (web.where.kind !== 'community') return { connector: '', keyed: '' };
  const origin = web.where.base
    ? deps.canonicalOrigin(null) + href(web, '')
    : deps.canonicalOrigin(web.where.community.slug);
  return { connector: `${origin}/mcp`, keyed: `${origin}/api/mcp` };
}

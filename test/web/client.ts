// A cookie-keeping HTTP client for the web pages without a browser: GET a page, post its form with
// the page's own form token, follow the 303, and read what a person would see.
import { raw, type RawResponse } from '../mcp/http-client.ts';

export class WebClient {
  private readonly cookies = new Map<string, string>();
  last?: RawResponse;

  constructor(private readonly base: string) {}

  private remember(res: RawResponse): void {
    const set = res.headers['set-cookie'];
    if (!set) return;
    // node joins several Set-Cookie headers with ", "; split on the cookie starts.
    for (const c of set.split(/, (?=[\w-]+=)/)) {
      const [pair, ...attrs] = c.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (attrs.some((a) => /max-age=0/i.test(a)) || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private header(): Record<string, string> {
    return this.cookies.size
      ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      : {};
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    const res = await raw(this.base + path, { headers: { ...this.header(), ...headers } });
    this.remember(res);
    this.last = res;
    return res;
  }

  /** The form token of the last page fetched. */
  csrf(): string {
    const m = this.last?.text.match(/name="_csrf" value="([^"]+)"/);
    if (!m) throw new Error('no form token on the last page');
    return m[1]!;
  }

  /** POSTs a form (the last page's token unless one is given); follows a 303 to its page. */
  async post(
    path: string,
    fields: Record<string, string | string[]>,
    o: { csrf?: string | null; headers?: Record<string, string>; follow?: boolean } = {},
  ): Promise<RawResponse> {
    const body = new URLSearchParams();
    const token = o.csrf === undefined ? this.csrf() : o.csrf;
    if (token !== null) body.append('_csrf', token);
    for (const [k, v] of Object.entries(fields))
      for (const one of ([] as string[]).concat(v)) body.append(k, one);
    const res = await raw(this.base + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...this.header(),
        ...o.headers,
      },
      body: body.toString(),
    });
    this.remember(res);
    this.last = res;
    if (res.status === 303 && (o.follow ?? true)) {
      const to = new URL(res.headers.location!, this.base);
      return this.get(to.pathname + to.search);
    }
    return res;
  }

  /** POSTs a multipart form with files (as a browser's enctype="multipart/form-data" form does). */
  async postFiles(
    path: string,
    fields: Record<string, string>,
    files: Record<string, File>,
  ): Promise<RawResponse> {
    const form = new FormData();
    form.append('_csrf', this.csrf());
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [k, f] of Object.entries(files)) form.append(k, f);
    const encoded = new Request('http://multipart.invalid/', { method: 'POST', body: form });
    const res = await raw(this.base + path, {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type')!, ...this.header() },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    this.remember(res);
    this.last = res;
    if (res.status === 303) {
      const to = new URL(res.headers.location!, this.base);
      return this.get(to.pathname + to.search);
    }
    return res;
  }
}

/** The visible text of an HTML fragment, roughly: tags dropped, entities of the escaper undone. */
export function visible(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

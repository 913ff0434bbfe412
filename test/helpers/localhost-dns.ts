// `*.localhost` is loopback (RFC 6761) and curl and Chromium resolve it so, but glibc's resolver,
// which Node uses, does not. Tests that reach `acme.localhost:<port>` through Node's fetch (the SDK
// client) import this once: it answers every *.localhost name with 127.0.0.1.
import dns from 'node:dns';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

const original = dns.lookup;
if (!(original as { hamletPatched?: boolean }).hamletPatched) {
  const patched = ((hostname: string, options: unknown, callback?: LookupCallback) => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as dns.LookupOptions;
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
      if (opts.all) return process.nextTick(() => cb(null, [{ address: '127.0.0.1', family: 4 }]));
      return process.nextTick(() => cb(null, '127.0.0.1', 4));
    }
    return (original as (...a: unknown[]) => void).call(dns, hostname, options, callback);
  }) as typeof dns.lookup;
  (patched as { hamletPatched?: boolean }).hamletPatched = true;
  dns.lookup = patched;
}

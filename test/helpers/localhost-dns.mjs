// `*.localhost` is loopback (RFC 6761) and curl and Chromium resolve it so, but glibc's resolver,
// which Node uses, does not. Tests that reach `acme.localhost:<port>` through Node's fetch import
// this once (the conformance runner loads it with --import): it answers *.localhost with 127.0.0.1.
// Plain JavaScript so that the Node 22 conformance process can load it without tsx.
import dns from 'node:dns';

const original = dns.lookup;
if (!original.hamletPatched) {
  const patched = (hostname, options, callback) => {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'object' && options !== null ? options : {};
    if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
      if (opts.all) return process.nextTick(() => cb(null, [{ address: '127.0.0.1', family: 4 }]));
      return process.nextTick(() => cb(null, '127.0.0.1', 4));
    }
    return original.call(dns, hostname, options, callback);
  };
  patched.hamletPatched = true;
  dns.lookup = patched;
}

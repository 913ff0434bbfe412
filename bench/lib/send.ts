// One HTTP request of a bench, sent exactly as autocannon sends it (the given headers and nothing
// else) over node:http, and its whole answer.
import { request, type Agent } from 'node:http';
import type { BenchRequest } from './servers.ts';

export type Answer = { status: number; contentType: string; text: string };

export async function send(url: string, req: BenchRequest, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const r = request(url, { method: req.method ?? 'POST', headers: req.headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text,
        }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

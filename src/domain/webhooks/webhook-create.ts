// webhook.create: an administrator adds an endpoint (a public http(s) URL, the events it wants, a
// description) with a new signing secret, shown this once (stored sealed).
import { z } from 'zod';
import type { WebhookEndpointRecord } from '../../store/webhooks.ts';
import type { UseCase } from '../writes/use-case.ts';
import {
  checkTarget,
  unique,
  webhookAdmin,
  webhookAudit,
  webhookFields,
} from './endpoint-rules.ts';
import type { SecretBox } from './secret-box.ts';
import { newWebhookSecret } from './signing.ts';

const contract = z.object({
  url: webhookFields.url,
  events: webhookFields.events,
  description: webhookFields.description.default(''),
});

type Loaded = { secret: string; sealed: string };

export function webhookCreate(
  allowPrivate: boolean,
  secrets: SecretBox,
): UseCase<z.output<typeof contract>, Loaded, { endpoint: WebhookEndpointRecord; secret: string }> {
  return {
    name: 'webhook.create',
    contract,
    guard: webhookAdmin,
    load: async (_ctx, input) => {
      checkTarget(input.url, allowPrivate);
      const secret = newWebhookSecret();
      return { secret, sealed: await secrets.seal(secret) };
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, input, { secret, sealed }) => ({
      endpoint: await tx.community(community.id).webhooks.createEndpoint({
        url: input.url,
        description: input.description,
        events: unique(input.events),
        secret: sealed,
      }),
      secret,
    }),
    audit: (created) => webhookAudit(created.endpoint.id),
  };
}

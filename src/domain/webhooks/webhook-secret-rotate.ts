// webhook.rotate_secret: an administrator gives an endpoint a new signing secret, shown this once;
// the previous one keeps signing for the overlap asked (default a day), so receivers can switch.
import { z } from 'zod';
import type { WebhookEndpointRecord } from '../../store/webhooks.ts';
import type { UseCase } from '../writes/use-case.ts';
import { findEndpoint, webhookAdmin, webhookAudit, webhookFields } from './endpoint-rules.ts';
import type { SecretBox } from './secret-box.ts';
import { newWebhookSecret } from './signing.ts';

const contract = z.object({
  id: z.string(),
  overlap_hours: webhookFields.overlapHours.default(24),
});

type Loaded = { current: WebhookEndpointRecord; secret: string; sealed: string };

export function webhookSecretRotate(
  secrets: SecretBox,
): UseCase<z.output<typeof contract>, Loaded, { endpoint: WebhookEndpointRecord; secret: string }> {
  return {
    name: 'webhook.rotate_secret',
    contract,
    guard: webhookAdmin,
    load: async ({ store, community }, { id }) => {
      const current = await findEndpoint(store, community, id);
      const secret = newWebhookSecret();
      return { current, secret, sealed: await secrets.seal(secret) };
    },
    policy: async () => ({ mode: 'apply', reason: 'administrator' }),
    apply: async ({ tx, community }, { overlap_hours }, { current, secret, sealed }) => ({
      endpoint: (await tx.community(community.id).webhooks.updateEndpoint(current.id, {
        secret: sealed,
        previousSecret: overlap_hours > 0 ? current.secret : null,
        previousExpiresAt: overlap_hours > 0 ? Date.now() + overlap_hours * 3_600_000 : null,
      }))!,
      secret,
    }),
    audit: (rotated) => webhookAudit(rotated.endpoint.id),
  };
}

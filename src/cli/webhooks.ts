// `hamlet webhook add|list|remove|deliveries|redeliver|verify`: a community's webhook endpoints and
// delivery log from the command line (as the operator), and a check of a saved request against a
// secret that says why it fails. `add` prints the endpoint id and its whsec_ secret, once. The
// operator may add a loopback or private receiver whatever this shell's environment says: whether
// it is delivered to is the server's HAMLET_WEBHOOK_ALLOW_PRIVATE, which its dispatcher checks at
// every delivery (the command says so when its own environment does not allow it).
import { readFileSync } from 'node:fs';
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { communityOf, required } from './identity.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { setExitCode } from './io.ts';
import { systemActor } from '../domain/actor.ts';
import { verifySignature } from '../domain/webhooks/signing.ts';
import { checkTarget } from '../domain/webhooks/endpoint-rules.ts';
import type { DeliveryView, EndpointView } from '../domain/webhooks/service.ts';

const operator = systemActor('cli');

const ADD =
  'hamlet webhook add --community <slug> --url <https://…> --events topic.created,post.created [--description <text>]';
const LIST = 'hamlet webhook list --community <slug>';
const REMOVE = 'hamlet webhook remove --community <slug> --id <endpoint id>';
const DELIVERIES =
  'hamlet webhook deliveries --community <slug> --id <endpoint id> [--status pending|delivered|failed] [--limit 20]';
const REDELIVER = 'hamlet webhook redeliver --community <slug> --delivery <delivery id>';
const VERIFY =
  'hamlet webhook verify --request <saved request file> (--secret whsec_… | --secret-file <file>) [--ignore-age]';

/** Whether `url` names a loopback, private or link-local receiver. */
function privateTarget(url: string): boolean {
  try {
    checkTarget(url, false);
    return false;
  } catch {
    return true;
  }
}

function endpointLine(e: EndpointView): string {
  const state = e.active ? 'active' : `disabled (${e.disabled_reason ?? 'by an administrator'})`;
  return `${e.id}  ${e.url}  ${e.events.join(',')}  ${state}${e.description ? `  "${e.description}"` : ''}`;
}

function deliveryLine(d: DeliveryView): string {
  const last = d.last_status ?? d.last_error ?? '';
  return `${d.id}  ${d.event.padEnd(18)}  ${d.status.padEnd(9)}  attempts ${d.attempts}  ${d.created_at}${last ? `  last: ${last}` : ''}${d.next_attempt_at ? `  next: ${d.next_attempt_at}` : ''}`;
}

/**
 * A saved request: optional request line, header lines, a blank line, the raw body (as `curl -D`,
 * a proxy log or a receiver's dump keeps it). Header names are compared lower-cased.
 */
export function parseSavedRequest(text: string): { headers: Record<string, string>; body: string } {
  const split = text.search(/\r?\n\r?\n/);
  if (split < 0)
    throw new UsageError(
      'The saved request needs its headers, a blank line, then the body exactly as received.',
    );
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, split).split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !/^(POST|GET|PUT|HTTP\/)/i.test(line))
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split).replace(/^\r?\n\r?\n/, '');
  return { headers, body };
}

export const webhookCommands: Command[] = [
  {
    name: 'webhook add',
    summary:
      'add a webhook endpoint; prints its id and whsec_ secret once: --community … --url … --events a,b',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        {
          community: { type: 'string' },
          url: { type: 'string' },
          events: { type: 'string' },
          description: { type: 'string' },
        },
        ADD,
      );
      required(values, ['community', 'url', 'events'], ADD);
      let allowedHere = false;
      const operatorsChoice = (config: { webhooks: { allowPrivate: boolean } }) => {
        allowedHere = config.webhooks.allowPrivate;
        config.webhooks.allowPrivate = true;
      };
      await withHamlet(
        async (_store, _config, services) => {
          const community = await communityOf(services, values.community, ADD);
          const events = values
            .events!.split(',')
            .map((e) => e.trim())
            .filter(Boolean);
          const { endpoint, secret } = await services.webhooks.create(operator, community, {
            url: values.url!,
            events,
            description: values.description,
          });
          console.log(
            `endpoint: ${endpoint.id}\nsecret:   ${secret}\n(The secret is shown only now; receivers verify deliveries with it.)`,
          );
          if (!allowedHere && privateTarget(values.url!))
            console.log(
              '(This receiver is on a loopback or private address: the server delivers to it only while it runs with HAMLET_WEBHOOK_ALLOW_PRIVATE=1.)',
            );
        },
        undefined,
        operatorsChoice,
      );
    },
  },
  {
    name: 'webhook list',
    summary: "list a community's webhook endpoints: --community …",
    async run(args) {
      const { values } = parseCommandArgs(args, { community: { type: 'string' } }, LIST);
      required(values, ['community'], LIST);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, LIST);
        const endpoints = await services.webhooks.list(operator, community);
        console.log(
          endpoints.length
            ? endpoints.map(endpointLine).join('\n')
            : `No webhook endpoints in "${community.slug}".`,
        );
      });
    },
  },
  {
    name: 'webhook remove',
    summary: 'remove a webhook endpoint and its delivery log: --community … --id …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, id: { type: 'string' } },
        REMOVE,
      );
      required(values, ['community', 'id'], REMOVE);
      await withHamlet(async (_store, _config, services) => {
        await services.webhooks.remove(
          operator,
          await communityOf(services, values.community, REMOVE),
          values.id!,
        );
        console.log(`Removed ${values.id}.`);
      });
    },
  },
  {
    name: 'webhook deliveries',
    summary: "an endpoint's delivery log, newest first: --community … --id … [--status failed]",
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        {
          community: { type: 'string' },
          id: { type: 'string' },
          status: { type: 'string' },
          limit: { type: 'string' },
        },
        DELIVERIES,
      );
      required(values, ['community', 'id'], DELIVERIES);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, DELIVERIES);
        const { deliveries } = await services.webhooks.deliveries(operator, community, values.id!, {
          status: values.status,
          limit: values.limit ? Number(values.limit) : 20,
        });
        console.log(deliveries.length ? deliveries.map(deliveryLine).join('\n') : 'No deliveries.');
      });
    },
  },
  {
    name: 'webhook redeliver',
    summary: 'send a delivery again now, with the same webhook-id: --community … --delivery …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, delivery: { type: 'string' } },
        REDELIVER,
      );
      required(values, ['community', 'delivery'], REDELIVER);
      await withHamlet(async (_store, _config, services) => {
        const d = await services.webhooks.redeliver(
          operator,
          await communityOf(services, values.community, REDELIVER),
          values.delivery!,
        );
        console.log(`${deliveryLine(d)}\nQueued: the dispatcher sends it within a second.`);
      });
    },
  },
  {
    name: 'webhook verify',
    summary: 'check a saved webhook request (headers + body) against a secret and say why it fails',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        {
          request: { type: 'string' },
          secret: { type: 'string' },
          'secret-file': { type: 'string' },
          'ignore-age': { type: 'boolean' },
        },
        VERIFY,
      );
      required(values, ['request'], VERIFY);
      const secret =
        values.secret ??
        (values['secret-file'] ? readFileSync(values['secret-file'], 'utf8').trim() : undefined);
      if (!secret)
        throw new UsageError(
          `Give the endpoint's secret with --secret or --secret-file.\nUsage: ${VERIFY}`,
        );
      const { headers, body } = parseSavedRequest(readFileSync(values.request!, 'utf8'));
      const stamped = Number(
        /t=(\d+)/.exec(headers['hamlet-signature'] ?? '')?.[1] ?? headers['webhook-timestamp'],
      );
      const verdict = verifySignature(
        secret,
        headers,
        body,
        values['ignore-age'] && Number.isFinite(stamped) ? stamped : undefined,
      );
      if (!verdict.ok) {
        console.log(`INVALID: ${verdict.reason}`);
        setExitCode(1);
        return;
      }
      console.log(
        `VALID: the ${verdict.scheme === 'hamlet' ? 'hamlet-signature' : 'Standard Webhooks signature'} matches (event ${headers['hamlet-event'] ?? '?'}, delivery ${headers['hamlet-delivery'] ?? headers['webhook-id'] ?? '?'}).`,
      );
    },
  },
];

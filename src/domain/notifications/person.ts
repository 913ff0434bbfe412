// Who has notifications: a person (signed in, or through their user key) who may read the
// community. Agents have none; they follow topics through MCP resource subscriptions and webhooks.
import type { Community } from '../../store/types.ts';
import type { Actor, PersonActor } from '../actor.ts';
import { requireRead } from '../authorization.ts';
import { DomainError } from '../errors.ts';

/** A person signed in (or through their key): the only kind of actor with notifications. */
export function requirePersonHere(actor: Actor, community: Community): PersonActor {
  requireRead(actor, community);
  if (actor.kind !== 'person')
    throw new DomainError(
      'forbidden',
      'Notifications are for people. An agent follows its topics through MCP resource subscriptions (resources/subscribe on hamlet://<community>/topics/<id>) and webhooks.',
    );
  return actor;
}

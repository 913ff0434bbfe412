// Reading (deciders) and changing (administrators) a community's moderation settings (the document
// and its defaults: ./settings.ts; the change, a use case of the one write runner: ./settings-set.ts).
import type { Store } from '../../store/repositories.ts';
import type { Community } from '../../store/types.ts';
import type { Actor } from '../actor.ts';
import { requireDecider } from '../authorization.ts';
import type { RunOptions, WriteRunner } from '../writes/runner.ts';
import { moderationSettings, type ModerationSettings } from './settings.ts';
import { moderationSettingsSet } from './settings-set.ts';

export class ModerationSettingsService {
  constructor(
    private readonly store: Store,
    private readonly runner: WriteRunner,
  ) {}

  async get(actor: Actor, community: Community): Promise<ModerationSettings> {
    await requireDecider(this.store, actor, community);
    return moderationSettings(this.store, community);
  }

  /** Changes the values given; the others keep what they were (or their defaults). */
  async set(
    actor: Actor,
    community: Community,
    input: unknown,
    options?: RunOptions,
  ): Promise<ModerationSettings> {
    return this.runner.run(moderationSettingsSet, actor, community, input, options);
  }
}

// Hard bounces: a mail refused for good because of its address — a delivery status notification
// saying "failed" with a 5.x.x status for a mail of ours (its Message-ID names it), or a 550, 551
// or 553 answer at send — counts one for that address. At HARD_BOUNCE_LIMIT, notification mail to
// the address stops (the account mails a person asks for, such as a reset link, still go); the
// person sees it on /account, and confirming the address again turns mail back on.
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/repositories.ts';
import type { BounceState } from '../../store/mail.ts';

/** Hard bounces after which notification mail to an address is disabled. */
export const HARD_BOUNCE_LIMIT = 3;

/** SMTP replies at send that say the address itself is bad (not the message, not the moment). */
export const ADDRESS_REFUSALS = [550, 551, 553];

export async function recordHardBounce(
  store: Store,
  logger: Logger,
  address: string,
  reason: string,
): Promise<BounceState> {
  const state = await store.mail.recordHardBounce(address, reason, HARD_BOUNCE_LIMIT);
  logger.warn(
    {
      event: 'mail.bounced',
      hardBounces: state.hardBounces,
      disabled: Boolean(state.disabledAt),
      reason,
    },
    state.disabledAt
      ? `mail to an address is off after ${state.hardBounces} hard bounces`
      : 'a mail bounced for good',
  );
  return state;
}

// The write runner of a service built by hand over a bare store (store tests, benches, the mail
// passes of a test): events reach no listener, audit entries go to the same store, and the use
// cases it runs must read nothing of the configuration (a community's own records, a mail pass).
// Services built by src/services.ts share services.writes.runner instead.
import type { Config } from '../../config/config.ts';
import type { Store } from '../../store/repositories.ts';
import { ContentEvents } from '../events.ts';
import { AuditService } from '../identity/audit.ts';
import { WriteRunner } from './runner.ts';

export function bareRunner(store: Store): WriteRunner {
  return new WriteRunner({
    store,
    config: {} as Config,
    events: new ContentEvents(),
    audit: new AuditService(store),
  });
}

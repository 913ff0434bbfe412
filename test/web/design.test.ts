// The design pass on the pages people read and write on (home, topic, search, ask, sign-in, the
// network apex, notifications, the admin overview): in the light and the dark scheme, no axe-core
// violation, nothing wider than 320 px, screenshots at 1280 and 390 px (design-kit.ts).
import { designPass } from './design-kit.ts';

designPass('design pass', [
  { name: 'home', host: 'acme.localhost', path: '/', signedIn: false },
  {
    name: 'topic',
    host: 'acme.localhost',
    path: '/t/verifying-the-hamlet-signature-header',
    signedIn: true,
  },
  { name: 'search', host: 'acme.localhost', path: '/search?q=signature', signedIn: false },
  { name: 'ask', host: 'acme.localhost', path: '/ask', signedIn: true },
  { name: 'signin', host: 'acme.localhost', path: '/signin', signedIn: false },
  { name: 'network', host: 'localhost', path: '/', signedIn: false },
  { name: 'notifications', host: 'acme.localhost', path: '/notifications', signedIn: true },
  { name: 'admin', host: 'acme.localhost', path: '/admin', signedIn: true },
]);

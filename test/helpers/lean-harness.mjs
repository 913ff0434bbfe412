// Preloaded into every test process by scripts/test.ts (`--import`): node:test (Node 20) tracks
// every async resource a test creates with an async hook, to blame an uncaught error on the test
// whose work threw it. Its `destroy` callback only removes finished resources from that map, but
// asking for it makes V8 track the end of every promise: on promise-heavy tests (every query is a
// few promises) that costs about a third more CPU than the test's own work. Here the harness's hook
// is created without `destroy`; the blame still works, and the map keeps the ids of a test process's
// finished resources (tens of MB on the heaviest file). Plain JavaScript: it runs before any loader.
// Any other hook, and a harness that creates its hook elsewhere, is left exactly as it was.
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
asyncHooks.createHook = function leanCreateHook(callbacks) {
  if (callbacks?.destroy && new Error().stack?.includes('internal/test_runner/harness')) {
    const { destroy: _unused, ...rest } = callbacks;
    return createHook.call(this, rest);
  }
  return createHook.call(this, callbacks);
};

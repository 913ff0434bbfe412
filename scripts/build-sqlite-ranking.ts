// Builds Hamlet's SQLite ranking library at install time (npm's postinstall), so that a server
// whose node_modules is read-only at run time has it too. A machine without a C compiler still
// installs: the server then ranks with FTS5's own bm25 and says so when it starts.
import { rankingLibrary } from '../src/search/sqlite-ranking.ts';

const built = rankingLibrary();
if ('error' in built)
  console.warn(
    `hamlet: ${built.error}. SQLite search will rank with FTS5's bm25 (every community's statistics together); install a C compiler (cc) and run npm install again to rank each community by its own.`,
  );

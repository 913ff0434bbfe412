// Child process for the SQLite lock tests: another process holding the database's write lock, as a
// second program (an import, a shell) would. Takes it with BEGIN IMMEDIATE, prints "locked", holds it
// for <ms>, commits, prints "released".
//   node --import tsx test/store/hold-lock-child.ts <database file> <ms>
import BetterSqlite3 from 'better-sqlite3';

const [path, ms] = process.argv.slice(2);
const db = new BetterSqlite3(path!);
db.pragma('busy_timeout = 10000');
db.exec('begin immediate');
process.stdout.write('locked\n');
setTimeout(() => {
  db.exec('commit');
  db.close();
  process.stdout.write('released\n');
}, Number(ms));

// `hamlet <command> [subcommand] [options]`. Each command lives in its own file under commands/;
// this file only finds it, runs it, and turns a thrown error into a message and a non-zero exit.
import { commands } from './commands.ts';
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';

function usage(): string {
  const lines = commands.map((c) => `  hamlet ${c.name.padEnd(24)} ${c.summary}`);
  return `Usage:\n${lines.join('\n')}`;
}

function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  // Longest match first, so "user key mint" wins over "user create".
  const sorted = [...commands].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  for (const command of sorted) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

const argv = process.argv.slice(2);
if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
  console.log(usage());
  process.exit(argv.length === 0 ? 1 : 0);
}
const found = findCommand(argv);
if (!found) {
  console.error(`hamlet: unknown command "${argv.join(' ')}".\n${usage()}`);
  process.exit(2);
}
try {
  await found.command.run(found.rest);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`hamlet ${found.command.name}: ${message}`);
  process.exit(err instanceof UsageError ? 2 : 1);
}

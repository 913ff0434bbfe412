// `hamlet <command> [subcommand] [options]`. Each command lives in its own file under commands/;
// this file only finds it, runs it, and turns a thrown error into a message and a non-zero exit.
// `hamlet --help`, `hamlet help <command>` and `hamlet <command> --help` print usage (exit 0),
// `hamlet --version` the version; a reader that closes the pipe early (`… | head -1`) ends the
// command quietly with exit 0.
import { commands } from './commands.ts';
import type { Command } from './command.ts';
import { HelpRequested, UsageError } from './errors.ts';
import { VERSION } from '../version.ts';
import { asksForHelp } from './with-hamlet.ts';

function usage(): string {
  const lines = commands.map((c) => `  hamlet ${c.name.padEnd(24)} ${c.summary}`);
  return [
    'Usage:',
    ...lines,
    '',
    '  hamlet help <command>      the usage of one command (or: hamlet <command> --help)',
    '  hamlet --version           the version of Hamlet',
    '',
    'Commands that use the database take DATABASE_URL (and the other variables of the README).',
  ].join('\n');
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

/** A reader that went away (EPIPE) ends the command quietly: what it was printing is not wanted. */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    process.exit(err.code === 'EPIPE' ? 0 : 1);
  });
}

/**
 * Prints a command's usage: its own, or the one its option parser holds (every command that parses
 * with parseCommandArgs answers --help before it does anything else), or its summary.
 */
async function printHelp(command: Command): Promise<void> {
  if (command.usage) {
    console.log(`Usage: ${command.usage}\n  ${command.summary}`);
    return;
  }
  try {
    await command.run(['--help']);
  } catch (err) {
    if (err instanceof HelpRequested) {
      console.log(`Usage: ${err.usage}\n  ${command.summary}`);
      return;
    }
  }
  console.log(`Usage: hamlet ${command.name} [options]\n  ${command.summary}`);
}

const argv = process.argv.slice(2);
// `serve` logs to stdout: its log destination handles its own errors.
if (argv[0] !== 'serve') {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
}
if (argv[0] === '--version' || argv[0] === '-v') {
  console.log(VERSION);
  process.exit(0);
}
if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
  const wanted = argv[0] === 'help' && argv.length > 1 ? findCommand(argv.slice(1)) : undefined;
  if (wanted) await printHelp(wanted.command);
  else if (argv[0] === 'help' && argv.length > 1) {
    console.error(`hamlet: unknown command "${argv.slice(1).join(' ')}".\n${usage()}`);
    process.exit(2);
  } else console.log(usage());
  process.exit(argv.length === 0 ? 1 : 0);
}
const found = findCommand(argv);
if (!found) {
  console.error(`hamlet: unknown command "${argv.join(' ')}".\n${usage()}`);
  process.exit(2);
}
if (asksForHelp(found.rest)) {
  await printHelp(found.command);
  process.exit(0);
}
try {
  await found.command.run(found.rest);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`hamlet ${found.command.name}: ${message}`);
  process.exit(err instanceof UsageError ? 2 : 1);
}

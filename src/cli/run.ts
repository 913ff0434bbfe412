// What `hamlet <command> [subcommand] [options]` does with its arguments, apart from the process
// (./main.ts is the program): finds the command, runs it, and turns a thrown error into a message
// and an exit code. `hamlet --help`, `hamlet help <command>` and `hamlet <command> --help` print
// usage (0), `hamlet --version` the version (0); no arguments print usage (1), an unknown command
// (2), a usage mistake (2), another error (1). Each command lives in its own file (./commands.ts).
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

/**
 * Runs the command `argv` names; answers the exit code, or undefined when a command ran and
 * returned (its exit code is the one it set, see setExitCode in ./io.ts, else 0).
 */
export async function runHamlet(argv: string[]): Promise<number | undefined> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    console.log(VERSION);
    return 0;
  }
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    const wanted = argv[0] === 'help' && argv.length > 1 ? findCommand(argv.slice(1)) : undefined;
    if (wanted) await printHelp(wanted.command);
    else if (argv[0] === 'help' && argv.length > 1) {
      console.error(`hamlet: unknown command "${argv.slice(1).join(' ')}".\n${usage()}`);
      return 2;
    } else console.log(usage());
    return argv.length === 0 ? 1 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    console.error(`hamlet: unknown command "${argv.join(' ')}".\n${usage()}`);
    return 2;
  }
  if (asksForHelp(found.rest)) {
    await printHelp(found.command);
    return 0;
  }
  try {
    await found.command.run(found.rest);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(`hamlet ${found.command.name}: ${message}`);
    return err instanceof UsageError ? 2 : 1;
  }
}

// The `hamlet` program: runs the command its arguments name (./run.ts) and exits with its code; a
// command that ran and returned lets the process end by itself (`serve` keeps serving). A reader
// that closes the pipe early (`… | head -1`) ends the command quietly with exit 0.
import { runHamlet } from './run.ts';

/** A reader that went away (EPIPE) ends the command quietly: what it was printing is not wanted. */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    process.exit(err.code === 'EPIPE' ? 0 : 1);
  });
}

const argv = process.argv.slice(2);
// `serve` logs to stdout: its log destination handles its own errors.
if (argv[0] !== 'serve') {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
}
const code = await runHamlet(argv);
if (code !== undefined) process.exit(code);

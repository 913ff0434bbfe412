// What a CLI command is: a name (one or more words), a one-line summary for the command list, its
// usage line (`hamlet <command> --help` and `hamlet help <command>` print it), and a run function
// that receives the remaining argv. A command without `usage` parses its options first, with
// parseCommandArgs (./with-hamlet.ts), which answers --help with the usage it is given.
export type Command = {
  name: string;
  summary: string;
  /** The full usage; without it, help prints the name and the summary. */
  usage?: string;
  run: (args: string[]) => Promise<void>;
};

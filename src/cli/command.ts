// What a CLI command is: a name (one or more words), a one-line summary for `--help`, and a run
// function that receives the remaining argv.
export type Command = {
  name: string;
  summary: string;
  run: (args: string[]) => Promise<void>;
};

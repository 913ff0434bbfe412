// The type check and the type-aware lint over one TypeScript program, for scripts/test.ts.
//
// `tsc --noEmit` and `eslint .` (its promise rules need types) each build the whole program and
// type-check it: run apart, the two cost about three type checks of CPU. Here one program is built
// (incrementally: tsc's own build info, kept in the folder given as the first argument, so files
// unchanged since the last run are not checked again) and handed to eslint through typescript-eslint's
// `programs` option, which then asks the same checker for the types its rules need.
// Prints tsc's diagnostics and eslint's findings as the two tools do; exits with bit 1 set when the
// type check failed and bit 2 when the lint did (0: both passed); 4 when it could not run.
import { join } from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';

async function main(): Promise<number> {
  const state = process.argv[2];
  if (!state) throw new Error('usage: types-and-lint.ts <state folder>');

  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  };

  const parsed = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    { incremental: true, tsBuildInfoFile: join(state, 'tsconfig.tsbuildinfo') },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.formatDiagnostic(d, host));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  const builder = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  });
  const diagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ];
  // With noEmit, emit writes only the build info (what the next run needs to skip unchanged files).
  builder.emit();
  if (diagnostics.length)
    process.stdout.write(
      process.stdout.isTTY
        ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host)
        : ts.formatDiagnostics(diagnostics, host),
    );

  const eslint = new ESLint({
    overrideConfig: {
      languageOptions: {
        parserOptions: { programs: [builder.getProgram()], projectService: false },
      },
    },
  });
  const results = await eslint.lintFiles(['.']);
  const findings = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const errors = results.reduce((n, r) => n + r.errorCount, 0);
  if (findings) process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));

  return (diagnostics.length ? 1 : 0) | (errors ? 2 : 0);
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err);
    process.exitCode = 4;
  },
);

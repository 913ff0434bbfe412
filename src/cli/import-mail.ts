// `hamlet import mail`: a mailing-list archive into a community, with a progress bar and a report.
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { importMail } from '../import/mail/importer.ts';
import { progressReporter } from '../import/progress.ts';
import { cliIo } from './io.ts';

const USAGE =
  'hamlet import mail <dir|mbox>... --community <slug> [--category <slug>] [--batch-size <n>]';

export const importMailCommand: Command = {
  name: 'import mail',
  summary: 'import a mailing-list archive (directory of messages or mbox) into a community',
  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        community: { type: 'string' },
        category: { type: 'string' },
        'batch-size': { type: 'string' },
      },
      USAGE,
    );
    if (positionals.length === 0)
      throw new UsageError(`Give a directory of messages or an mbox file.\nUsage: ${USAGE}`);
    if (!values.community) throw new UsageError(`--community is required.\nUsage: ${USAGE}`);
    const batchSize = values['batch-size'] === undefined ? undefined : Number(values['batch-size']);
    if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
      throw new UsageError('--batch-size must be a positive whole number.');
    }
    await withHamlet(async (store, config, services) => {
      const report = await importMail(
        store,
        { config, events: services.events },
        {
          communitySlug: values.community!,
          categorySlug: values.category,
          paths: positionals,
          batchSize,
          onProgress: progressReporter(cliIo().stderr),
        },
      );
      console.log(
        `Imported ${report.postsCreated} posts in ${report.topicsCreated} new topics from ${report.messages} messages ` +
          `(${report.threads} threads, ${report.alreadyImported} already imported, ${report.duplicates} duplicates, ` +
          `${report.skippedFiles} non-mail files skipped, ${report.unparseable} unreadable) in ${(report.durationMs / 1000).toFixed(1)} s.`,
      );
    });
  },
};

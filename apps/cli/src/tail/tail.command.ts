import type { Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import { interventionsAfter, newestSeq } from '../api/audit-pages.js';
import { auditFilters, filterOptionHelp, type FilterOptions } from '../audit/audit-filters.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { recordLine } from '../render/record-line.js';
import { sleep } from './sleep.js';

interface TailOptions extends ApiCommandOptions, FilterOptions {
  readonly interval: string;
  readonly fromStart?: boolean;
}

/**
 * `tokencircuit tail`: follows the audit trail live, polling GET /v1/audit/interventions with a
 * cursor; Ctrl+C ends it cleanly (exit 0) after the request in flight.
 */
export function tailCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const command = withApiOptions(program.command('tail').description('follow interventions live (Ctrl+C to stop)'));
  for (const [flag, description] of filterOptionHelp()) command.option(flag, description);
  command
    .option('--interval <ms>', 'poll interval in milliseconds', '500')
    .option('--from-start', 'print the existing trail first, then follow')
    .action(async (options: TailOptions) => {
      const interval = Number(options.interval);
      if (!Number.isInteger(interval) || interval < 50)
        throw usageError(`--interval: "${options.interval}" must be an integer of at least 50 (ms)`);
      const out = new Output(io, options.json === true);
      const filters = auditFilters(options);
      const client = apiClientOf(options, io);
      try {
        let after = options.fromStart ? 0 : await newestSeq(client);
        out.note(
          `following interventions of ${client.target.url}${after > 0 ? ` after #${after}` : ''} (Ctrl+C to stop)`,
        );
        while (!io.signal.aborted) {
          const { items, lastSeq } = await interventionsAfter(client, filters, after);
          for (const item of items) {
            out.record(item);
            out.text(recordLine(item, out.c));
          }
          after = lastSeq;
          await sleep(interval, io.signal);
        }
      } catch (error) {
        if (!io.signal.aborted) throw error;
      }
      done(EXIT.ok);
    });
}

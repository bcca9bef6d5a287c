import { Option, type Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import { listInterventions } from '../api/audit-pages.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { recordLine } from '../render/record-line.js';
import { auditFilters, filterOptionHelp, type FilterOptions } from './audit-filters.js';
import { csvRecords } from './csv-records.js';

interface AuditOptions extends ApiCommandOptions, FilterOptions {
  readonly limit: string;
  readonly order: 'asc' | 'desc';
  readonly csv?: boolean;
}

/** `tokencircuit audit`: the audit trail through GET /v1/audit/interventions, every filter of the API. */
export function auditCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const command = withApiOptions(
    program.command('audit').description('query the audit trail of interventions (newest first by default)'),
  )
    .option('--from <instant>', 'issued at or after (ISO 8601, e.g. 2026-03-01T09:00:00Z)')
    .option('--to <instant>', 'issued before (ISO 8601)');
  for (const [flag, description] of filterOptionHelp()) command.option(flag, description);
  command
    .option('--limit <n>', 'at most this many rows (pages are followed)', '100')
    .addOption(new Option('--order <order>', 'by audit sequence').choices(['asc', 'desc']).default('desc'))
    .option('--csv', 'CSV as the API exports it (header once)')
    .action(async (options: AuditOptions) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1)
        throw usageError(`--limit: "${options.limit}" is not a positive integer`);
      if (options.csv && options.json) throw usageError('--csv and --json: choose one');
      const filters = auditFilters(options);
      const client = apiClientOf(options, io);
      if (options.csv) {
        await printCsv(io, client, filters, options.order, limit);
        done(EXIT.ok);
        return;
      }
      const out = new Output(io, options.json === true);
      const items = await listInterventions(client, filters, options.order, limit);
      for (const item of items) {
        out.record(item);
        out.text(recordLine(item, out.c));
      }
      out.note(`${items.length} intervention(s)${items.length === limit ? ` (--limit ${limit} reached)` : ''}`);
      done(EXIT.ok);
    });
}

async function printCsv(
  io: CliIo,
  client: ReturnType<typeof apiClientOf>,
  filters: ReturnType<typeof auditFilters>,
  order: 'asc' | 'desc',
  limit: number,
): Promise<void> {
  let cursor: string | undefined;
  let rows = 0;
  let first = true;
  do {
    const { text, headers } = await client.getText('/v1/audit/interventions', {
      ...filters,
      order,
      cursor,
      format: 'csv',
      limit: Math.min(500, limit - rows),
    });
    // Every page repeats the header row (plain names, no line breaks): a CSV file has it once.
    const records = csvRecords(text);
    io.stdout.write(first ? text : text.slice(text.indexOf('\r\n') + 2));
    rows += records - 1;
    first = false;
    cursor = headers.get('x-next-cursor') ?? undefined;
  } while (cursor !== undefined && rows < limit);
}

import type { Command } from 'commander';
import { WhatIf, type TokenCircuitConfig } from '@tokencircuit/governance';
import { countStoredEvents, type StoredEventFilter } from '@tokencircuit/storage';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { inputLines } from '../io/json-lines.js';
import { Output } from '../io/output.js';
import { progressBar } from '../io/progress.js';
import { agentEventOfLine } from '../input/agent-event-input.js';
import { badLineOf, type BadLine } from '../input/bad-line.js';
import { policyFile, policyOption } from '../policy/policy-option.js';
import { badLineText } from '../render/classification-text.js';
import { whatIfText } from '../render/whatif-text.js';
import { openReplayDatabase } from '../replay/open-replay-database.js';
import { storedEvents } from './stored-events.js';

type TraceBadLine = BadLine & { readonly file?: string };

interface WhatIfOptions {
  readonly policy: string;
  readonly baseline?: string;
  readonly database?: boolean;
  readonly databaseUrl?: string;
  readonly dataDir?: string;
  readonly force?: boolean;
  readonly tenant?: string;
  readonly from?: string;
  readonly to?: string;
  readonly pageSize: string;
  readonly json?: boolean;
  readonly top: string;
}

const instant = (flag: string, value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw usageError(
      `${flag}: "${value}" is not an ISO 8601 date or timestamp (e.g. 2026-03-01 or 2026-03-01T09:00:00Z)`,
    );
  }
  return new Date(ms).toISOString();
};

/**
 * `tokencircuit whatif --policy CANDIDATE [--baseline BASELINE] [TRACE… | --database]`: folds the same
 * events under both policies and reports where decisions and preflight answers would differ.
 * Exit 0 no difference, 1 differences, 2 bad input.
 */
export function whatIfCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('whatif')
    .description('replay recorded events under a candidate policy and show what it would have decided differently')
    .argument('[traces...]', 'JSON-lines traces of agent events, folded in the order given ("-" or none: stdin)')
    .requiredOption('--policy <file>', 'the candidate TokenCircuitConfig JSON')
    .option(
      '--baseline <file>',
      'the policy to compare with (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)',
    )
    .option('--database', 'read the stored agent_events instead of traces (streamed, in the order they were folded)')
    .option('--database-url <url>', 'with --database: Postgres (default: $DATABASE_URL, else the embedded PGlite)')
    .option('--data-dir <dir>', 'with --database: embedded data folder (default: $TOKENCIRCUIT_DATA_DIR, else ./.data)')
    .option('--force', 'with --database: open a PGlite folder whose postmaster.pid says it is in use')
    .option('--tenant <tenant>', 'with --database: only this tenant')
    .option('--from <time>', 'with --database: events at or after this time')
    .option('--to <time>', 'with --database: events before this time')
    .option('--page-size <n>', 'with --database: events read per query', '5000')
    .option('--top <n>', 'changed keys shown on screen, most consequential first (--json lists all)', '50')
    .option('--json', 'one JSON object per changed key, then one summary line')
    .action(async (traces: string[], options: WhatIfOptions) => {
      const out = new Output(io, options.json === true);
      const top = Number(options.top);
      if (!Number.isInteger(top) || top < 0)
        throw usageError(`--top: "${options.top}" must be a whole number (0 or more)`);
      const candidate = policyOption(options.policy, {}, io.cwd);
      const baseline = policyOption(options.baseline, io.env, io.cwd);
      const fromDatabase = options.database === true;
      if (fromDatabase && traces.length > 0)
        throw usageError('--database reads the stored events: give no trace files');
      if (!fromDatabase) {
        for (const flag of ['tenant', 'from', 'to', 'databaseUrl', 'dataDir'] as const) {
          if (options[flag] !== undefined)
            throw usageError(`--${flag.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)} goes with --database`);
        }
      }
      out.note(`baseline ${policyFile(options.baseline, io.env) ?? 'RFC defaults'} vs candidate ${options.policy}`);
      const { comparison, bad } = fromDatabase
        ? { comparison: await foldDatabase(new WhatIf(baseline, candidate, false), options, io, out), bad: [] }
        : await foldTraces(traces, baseline, candidate, io, out);
      if (bad.length === 0) finish(comparison, out, top);
      else {
        for (const line of bad) {
          out.record(line);
          out.text(`${line.file ?? 'stdin'}: ${badLineText(line, out.c)}`);
        }
        out.note(`${bad.length} bad line(s): nothing compared (fix or remove them, then run again)`);
        done(EXIT.usage);
      }
    });

  async function foldTraces(
    traces: readonly string[],
    baseline: TokenCircuitConfig,
    candidate: TokenCircuitConfig,
    cliIo: CliIo,
    out: Output,
  ): Promise<{ comparison: WhatIf; bad: TraceBadLine[] }> {
    const comparison = new WhatIf(baseline, candidate);
    const bad: TraceBadLine[] = [];
    for (const file of traces.length > 0 ? traces : [undefined]) {
      for await (const { line, text } of inputLines(file, cliIo.stdin, (h) => out.note(h), cliIo.signal)) {
        try {
          comparison.push(agentEventOfLine(text));
        } catch (error) {
          bad.push({ ...badLineOf(line, error), ...(file ? { file } : {}) });
        }
      }
    }
    return { comparison, bad };
  }

  async function foldDatabase(comparison: WhatIf, options: WhatIfOptions, cliIo: CliIo, out: Output): Promise<WhatIf> {
    const pageSize = Number(options.pageSize);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50_000) {
      throw usageError(`--page-size: "${options.pageSize}" must be an integer from 1 to 50000`);
    }
    const filter: StoredEventFilter = {
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
      ...(options.from !== undefined ? { from: instant('--from', options.from) } : {}),
      ...(options.to !== undefined ? { to: instant('--to', options.to) } : {}),
    };
    const db = await openReplayDatabase(options, cliIo);
    try {
      const total = await countStoredEvents(db.live, db.liveSchema, filter);
      out.note(`comparing over ${total} stored event(s) of ${db.description}`);
      const bar = progressBar(out, 'whatif', total);
      try {
        for await (const page of storedEvents(db.live, db.liveSchema, filter, pageSize, cliIo.signal)) {
          for (const event of page) comparison.push(event);
          bar.tick(page.length);
        }
      } finally {
        bar.stop();
      }
    } finally {
      await db.close();
    }
    return comparison;
  }

  function finish(comparison: WhatIf, out: Output, top: number): void {
    const report = comparison.report();
    for (const key of report.changedKeys) out.record(key);
    out.record({ summary: { ...report.summary, changedAttempts: report.changedAttempts } });
    if (!out.json) out.textLines(whatIfText(report, out.c, top));
    done(report.changedKeys.length > 0 || report.changedAttempts.length > 0 ? EXIT.findings : EXIT.ok);
  }
}

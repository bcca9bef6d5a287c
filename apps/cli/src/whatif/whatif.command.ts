import type { Command } from 'commander';
import type { AgentEvent } from '@tokencircuit/contracts';
import {
  SpendReplayer,
  TokenCircuitConfigError,
  WhatIf,
  withNoProgressThresholds,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';
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
import { spendWhatIfText, whatIfText } from '../render/whatif-text.js';
import { openReplayDatabase } from '../replay/open-replay-database.js';
import { storedEvents } from './stored-events.js';

type TraceBadLine = BadLine & { readonly file?: string };

interface WhatIfOptions {
  readonly policy?: string;
  /**
   * --no-progress-threshold: commander reads a "--no-" option as the negation of "progressThreshold",
   * so absent it is true; given, the list.
   */
  readonly progressThreshold?: string | boolean;
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
 * events under both policies and reports where decisions and preflight answers would differ, and how
 * many runs each policy's no_progress detectors would have stopped, at which call.
 * `--no-progress-threshold read=8,write=3` makes the candidate (the --policy file, else the baseline)
 * with those block thresholds.
 * Exit 0 no difference, 1 differences, 2 bad input.
 */
export function whatIfCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('whatif')
    .description('replay recorded events under a candidate policy and show what it would have decided differently')
    .argument('[traces...]', 'JSON-lines traces of agent events, folded in the order given ("-" or none: stdin)')
    .option(
      '--policy <file>',
      'the candidate TokenCircuitConfig JSON (default with --no-progress-threshold: the baseline)',
    )
    .option(
      '--no-progress-threshold <list>',
      'candidate no_progress block thresholds, e.g. read=8,write=3,cycle=5,poll=30 (same call, same result for reads and writes; cycle turns; unchanged polls)',
    )
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
      const thresholds = typeof options.progressThreshold === 'string' ? options.progressThreshold : undefined;
      if (options.policy === undefined && thresholds === undefined)
        throw usageError('give the candidate: --policy FILE, --no-progress-threshold LIST, or both');
      const baseline = policyOption(options.baseline, io.env, io.cwd);
      const candidate = candidateOf(
        options.policy === undefined ? baseline : policyOption(options.policy, {}, io.cwd),
        thresholds,
      );
      const fromDatabase = options.database === true;
      if (fromDatabase && traces.length > 0)
        throw usageError('--database reads the stored events: give no trace files');
      if (!fromDatabase) {
        for (const flag of ['tenant', 'from', 'to', 'databaseUrl', 'dataDir'] as const) {
          if (options[flag] !== undefined)
            throw usageError(`--${flag.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)} goes with --database`);
        }
      }
      const named = [
        ...(options.policy === undefined ? [] : [options.policy]),
        ...(thresholds === undefined ? [] : [`no_progress ${thresholds}`]),
      ].join(' with ');
      out.note(`baseline ${policyFile(options.baseline, io.env) ?? 'RFC defaults'} vs candidate ${named}`);
      // Budgets (issue 31): the same events through each policy's spend ledger, when either has budgets.
      const spend =
        baseline.spend !== undefined || candidate.spend !== undefined
          ? { baseline: new SpendReplayer(baseline), candidate: new SpendReplayer(candidate) }
          : null;
      const alsoSpend = (event: AgentEvent) => {
        spend?.baseline.push(event);
        spend?.candidate.push(event);
      };
      const { comparison, bad } = fromDatabase
        ? {
            comparison: await foldDatabase(new WhatIf(baseline, candidate, false), alsoSpend, options, io, out),
            bad: [],
          }
        : await foldTraces(traces, baseline, candidate, alsoSpend, io, out);
      if (bad.length === 0) finish(comparison, spend, out, top);
      else {
        for (const line of bad) {
          out.record(line);
          out.text(`${line.file ?? 'stdin'}: ${badLineText(line, out.c)}`);
        }
        out.note(`${bad.length} bad line(s): nothing compared (fix or remove them, then run again)`);
        done(EXIT.usage);
      }
    });

  function candidateOf(policy: TokenCircuitConfig, thresholds: string | undefined): TokenCircuitConfig {
    if (thresholds === undefined) return policy;
    try {
      return withNoProgressThresholds(policy, thresholds);
    } catch (error) {
      if (error instanceof TokenCircuitConfigError) throw usageError(`--no-progress-threshold: ${error.message}`);
      throw error;
    }
  }

  async function foldTraces(
    traces: readonly string[],
    baseline: TokenCircuitConfig,
    candidate: TokenCircuitConfig,
    alsoSpend: (event: AgentEvent) => void,
    cliIo: CliIo,
    out: Output,
  ): Promise<{ comparison: WhatIf; bad: TraceBadLine[] }> {
    const comparison = new WhatIf(baseline, candidate);
    const bad: TraceBadLine[] = [];
    for (const file of traces.length > 0 ? traces : [undefined]) {
      for await (const { line, text } of inputLines(file, cliIo.stdin, (h) => out.note(h), cliIo.signal)) {
        try {
          const event = agentEventOfLine(text);
          comparison.push(event);
          alsoSpend(event);
        } catch (error) {
          bad.push({ ...badLineOf(line, error), ...(file ? { file } : {}) });
        }
      }
    }
    return { comparison, bad };
  }

  async function foldDatabase(
    comparison: WhatIf,
    alsoSpend: (event: AgentEvent) => void,
    options: WhatIfOptions,
    cliIo: CliIo,
    out: Output,
  ): Promise<WhatIf> {
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
          for (const event of page) {
            comparison.push(event);
            alsoSpend(event);
          }
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

  function finish(
    comparison: WhatIf,
    spendReplays: { readonly baseline: SpendReplayer; readonly candidate: SpendReplayer } | null,
    out: Output,
    top: number,
  ): void {
    const report = comparison.report();
    const spend =
      spendReplays === null
        ? null
        : { baseline: spendReplays.baseline.result(), candidate: spendReplays.candidate.result() };
    for (const key of report.changedKeys) out.record(key);
    out.record({
      summary: { ...report.summary, changedAttempts: report.changedAttempts, ...(spend !== null ? { spend } : {}) },
    });
    if (!out.json) {
      out.textLines(whatIfText(report, out.c, top));
      if (spend !== null) out.textLines(spendWhatIfText(spend, out.c));
    }
    const spendChanged =
      spend !== null &&
      (JSON.stringify(spend.baseline.verdicts) !== JSON.stringify(spend.candidate.verdicts) ||
        JSON.stringify(spend.baseline.runs) !== JSON.stringify(spend.candidate.runs));
    done(report.changedKeys.length > 0 || report.changedAttempts.length > 0 || spendChanged ? EXIT.findings : EXIT.ok);
  }
}

import type { Command } from 'commander';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import type { CliIo } from '../io/cli-io.js';
import { inputLines } from '../io/json-lines.js';
import { Output } from '../io/output.js';
import { agentEventOfLine } from '../input/agent-event-input.js';
import { badLineOf, type BadLine } from '../input/bad-line.js';
import { policyOption } from '../policy/policy-option.js';
import { badLineText } from '../render/classification-text.js';
import { simulatedText } from '../render/simulated-text.js';
import { simulateTrace, type TracedEvent } from './simulate-trace.js';

interface SimulateOptions {
  readonly json?: boolean;
  readonly policy?: string;
}

/**
 * `tokencircuit simulate [file]`: folds a trace with the pure core and prints, in input order, every
 * decision the engine would take and the intervention it would emit, with bad lines where they were.
 */
export function simulateCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('simulate')
    .description('fold a JSON-lines trace of agent events with the core and print the decisions and interventions')
    .argument('[file]', 'JSON-lines file ("-" or nothing: stdin)')
    .option('--json', 'one JSON object per line')
    .option('--policy <file>', 'TokenCircuitConfig JSON (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)')
    .action(async (file: string | undefined, options: SimulateOptions) => {
      const out = new Output(io, options.json === true);
      const policy = policyOption(options.policy, io.env, io.cwd);
      const trace: TracedEvent[] = [];
      const bad: BadLine[] = [];
      for await (const { line, text } of inputLines(file, io.stdin, (h) => out.note(h), io.signal)) {
        try {
          trace.push({ line, event: agentEventOfLine(text) });
        } catch (error) {
          bad.push(badLineOf(line, error));
        }
      }
      const decisions = simulateTrace(trace, policy);
      // Bad lines and decisions in input order, so each result sits where its line is.
      const rows = [
        ...bad.map((b) => ({ line: b.line, record: b, text: [badLineText(b, out.c)] })),
        ...decisions.map((d) => ({ line: d.line, record: d, text: simulatedText(d, out.c) })),
      ].sort((x, y) => x.line - y.line);
      for (const row of rows) {
        out.record(row.record);
        out.text(...row.text);
      }
      const interventions = decisions.filter((d) => d.intervention !== null).length;
      out.note(
        `${trace.length} event(s) folded, ${decisions.length} decision(s), ${interventions} intervention(s)` +
          (bad.length > 0 ? `, ${bad.length} bad line(s) skipped` : ''),
      );
      done(bad.length > 0 ? EXIT.usage : EXIT.ok);
    });
}

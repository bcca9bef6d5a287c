import type { Command } from 'commander';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import type { CliIo } from '../io/cli-io.js';
import { inputLines } from '../io/json-lines.js';
import { Output } from '../io/output.js';
import { badLineOf } from '../input/bad-line.js';
import { outcomeOfLine } from '../input/outcome-input.js';
import { policyOption } from '../policy/policy-option.js';
import { badLineText, classificationText } from '../render/classification-text.js';
import { classifyOutcome } from './classify-outcome.js';

interface ClassifyOptions {
  readonly json?: boolean;
  readonly policy?: string;
  readonly tenant: string;
}

/** `tokencircuit classify [file]`: one result line per outcome; bad lines are reported and skipped. */
export function classifyCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('classify')
    .description('classify tool_call.outcome events (JSON lines on stdin or in a file) into the RFC failure classes')
    .argument('[file]', 'JSON-lines file ("-" or nothing: stdin)')
    .option('--json', 'one JSON object per line')
    .option('--policy <file>', 'TokenCircuitConfig JSON (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)')
    .option('--tenant <tenant>', 'tenant for bare outcome data objects (events carry their own)', 'local')
    .action(async (file: string | undefined, options: ClassifyOptions) => {
      const out = new Output(io, options.json === true);
      const policy = policyOption(options.policy, io.env, io.cwd);
      let bad = 0;
      for await (const { line, text } of inputLines(file, io.stdin, (h) => out.note(h), io.signal)) {
        try {
          const row = classifyOutcome(line, outcomeOfLine(text, options.tenant), policy);
          out.record(row);
          out.text(...classificationText(row, out.c));
        } catch (error) {
          const badLine = badLineOf(line, error);
          bad += 1;
          out.record(badLine);
          out.text(badLineText(badLine, out.c));
        }
      }
      if (bad > 0) out.note(`${bad} bad line(s): fix them and run again`);
      done(bad > 0 ? EXIT.usage : EXIT.ok);
    });
}

import type { Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { ChainReport } from '../api/api-types.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';

/** `tokencircuit verify`: GET /v1/audit/verify; exit 1 when the tenant's hash chain is broken. */
export function verifyCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withApiOptions(
    program.command('verify').description("verify the tenant's hash-chained audit trail (exit 1 when broken)"),
  ).action(async (options: ApiCommandOptions) => {
    const out = new Output(io, options.json === true);
    const report = await apiClientOf(options, io).getJson<ChainReport>('/v1/audit/verify');
    out.record(report);
    const head = report.head ? ` · head #${report.head.seq} ${report.head.hash}` : '';
    if (report.result.ok) {
      out.text(
        `${out.c.green('intact')} audit trail of tenant ${report.tenant}: ${report.result.checked} intervention(s) checked${head}`,
      );
      done(EXIT.ok);
    } else {
      out.text(
        `${out.c.bold(out.c.red('BROKEN'))} audit trail of tenant ${report.tenant} at #${report.result.firstBrokenSeq}: ${report.result.reason}`,
        `  ${report.result.checked} intervention(s) verified intact before it${head}`,
      );
      done(EXIT.findings);
    }
  });
}

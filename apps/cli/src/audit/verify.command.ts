import type { Command } from 'commander';
import {
  AnchorError,
  checkAgainstAnchor,
  verifyAnchor,
  type AnchorFinding,
  type SignedAnchor,
} from '@tokencircuit/storage';
import { anchorsFromFile, anchorsFromKafka } from '../anchors/anchor-sources.js';
import { verifyingKeyOf } from '../anchors/verifying-key.js';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { verifyWholeChain, VERIFY_PAGE_ROWS } from './verify-pages.js';

interface VerifyOptions extends ApiCommandOptions {
  readonly anchor?: string;
  readonly anchorTopic?: boolean;
  readonly publicKey?: string;
  readonly pageSize?: string;
}

/**
 * `tokencircuit verify`: GET /v1/audit/verify, page after page (verify-pages.ts); exit 1 when the tenant's hash chain is broken. With an
 * anchor (--anchor FILE or --anchor-topic) it also checks the trail against the signed head kept outside
 * the database, so deleted or rewritten newest rows and edited agent events are found (docs/audit.md).
 */
export function verifyCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withApiOptions(
    program
      .command('verify')
      .description("verify the tenant's hash-chained audit trail (exit 1 when broken), against an anchor when given")
      .option(
        '--anchor <file>',
        'check against the signed anchor in this file (anchors export, or the embedded data folder)',
      )
      .option('--anchor-topic', 'check against the latest anchor on the audit-anchors topic (KAFKA_BROKERS)')
      .option(
        '--public-key <file>',
        'Ed25519 public key the anchors are signed with (default: $TOKENCIRCUIT_ANCHOR_PUBLIC_KEY)',
      )
      .option('--page-size <rows>', `chain rows verified per request (1-10000, default ${VERIFY_PAGE_ROWS})`),
  ).action(async (options: VerifyOptions) => {
    if (options.anchor && options.anchorTopic) throw usageError('--anchor and --anchor-topic: choose one');
    const out = new Output(io, options.json === true);
    const client = apiClientOf(options, io);
    const pageRows = Number(options.pageSize ?? VERIFY_PAGE_ROWS);
    if (!Number.isInteger(pageRows) || pageRows < 1 || pageRows > 10_000) {
      throw usageError('--page-size: a whole number of chain rows from 1 to 10000');
    }
    let report = await verifyWholeChain(client, {}, pageRows);
    let anchor: SignedAnchor | null = null;
    let findings: AnchorFinding[] = [];
    if (options.anchor || options.anchorTopic) {
      const key = verifyingKeyOf(options.publicKey, io, options.dataDir);
      const anchors = options.anchor ? anchorsFromFile(options.anchor, io) : await anchorsFromKafka(io);
      const raw = anchors.get(report.tenant);
      if (raw === undefined) {
        throw usageError(
          `no anchor of tenant ${report.tenant} in ${options.anchor ?? 'the audit-anchors topic'} (anchors of: ${[...anchors.keys()].join(', ') || 'none'})`,
        );
      }
      try {
        anchor = verifyAnchor(raw, key);
      } catch (error) {
        if (error instanceof AnchorError) throw usageError(`the anchor cannot be trusted: ${error.message}`);
        throw error;
      }
      report = await verifyWholeChain(
        client,
        { ...(anchor.chain ? { anchorSeq: anchor.chain.seq } : {}), eventsThrough: anchor.events.through },
        pageRows,
      );
      findings = checkAgainstAnchor(anchor, {
        tenant: report.tenant,
        chainAtAnchor: report.anchorFacts?.chainAtAnchor ?? null,
        chainHead: report.head,
        events: report.anchorFacts!.events!,
      });
    }
    out.record(
      anchor ? { ...report, anchor: { anchoredAt: anchor.anchoredAt, keyId: anchor.keyId }, findings } : report,
    );
    const head = report.head ? ` · head #${report.head.seq} ${report.head.hash}` : '';
    const broken = !report.result.ok || findings.length > 0;
    if (report.result.ok) {
      out.text(
        `${broken ? out.c.yellow('chain intact') : out.c.green('intact')} audit trail of tenant ${report.tenant}: ${report.result.checked} intervention(s) checked${head}`,
      );
    } else {
      out.text(
        `${out.c.bold(out.c.red('BROKEN'))} audit trail of tenant ${report.tenant} at #${report.result.firstBrokenSeq}: ${report.result.reason}`,
        `  ${report.result.checked} intervention(s) verified intact before it${head}`,
      );
    }
    if (anchor) {
      const what = `anchor of ${anchor.anchoredAt} (key ${anchor.keyId}; chain #${anchor.chain?.seq ?? '-'}, ${anchor.events.count} event(s) through seq ${anchor.events.through})`;
      if (findings.length === 0) out.text(`${out.c.green('matches')} the ${what}`);
      else
        out.text(
          `${out.c.bold(out.c.red('TAMPERED'))} against the ${what}:`,
          ...findings.map((f) => `  ${f.code}: ${f.message}`),
        );
    }
    done(broken ? EXIT.findings : EXIT.ok);
  });
}

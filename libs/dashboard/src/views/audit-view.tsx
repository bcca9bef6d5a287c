import { useState } from 'preact/hooks';
import { api, HttpError, query } from '../api.js';
import type { ChainReport } from '../types.js';

const CLASSES = [
  '',
  'transient',
  'validation',
  'permission',
  'missing_resource',
  'ambiguous_effect',
  'invariant_violation',
];
const LEVELS = ['', 'advise', 'block', 'page'];

/** Audit export (the audit API's own CSV and JSON) and chain verification, from the page. */
export function AuditView() {
  const [failureClass, setClass] = useState('');
  const [level, setLevel] = useState('');
  const [principal, setPrincipal] = useState('');
  const [report, setReport] = useState<ChainReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const filters = { class: failureClass, level, principal: principal.trim(), limit: 500 };
  const verify = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await verifyWholeChain());
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Audit</h1>
      <section aria-labelledby="export-title">
        <h2 id="export-title">Export the audit trail</h2>
        <div class="controls">
          <label>
            Class{' '}
            <select value={failureClass} onChange={(e) => setClass((e.target as HTMLSelectElement).value)}>
              {CLASSES.map((c) => (
                <option value={c} key={c}>
                  {c === '' ? 'any' : c.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </label>
          <label>
            Level{' '}
            <select value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
              {LEVELS.map((l) => (
                <option value={l} key={l}>
                  {l === '' ? 'any' : l}
                </option>
              ))}
            </select>
          </label>
          <label>
            Principal <input value={principal} onInput={(e) => setPrincipal((e.target as HTMLInputElement).value)} />
          </label>
        </div>
        <p>
          <a
            class="button"
            href={`/v1/audit/interventions${query({ ...filters, format: 'csv' })}`}
            download="interventions.csv"
          >
            Download CSV
          </a>{' '}
          <a
            class="button"
            href={`/v1/audit/interventions${query({ ...filters, format: 'json' })}`}
            download="interventions.json"
          >
            Download JSON
          </a>
        </p>
        <p class="muted">
          The newest 500 matching interventions; for more, page with <code>npx tokencircuit audit</code>.
        </p>
      </section>
      <section aria-labelledby="verify-title">
        <h2 id="verify-title">Verify the hash chain</h2>
        <button type="button" onClick={() => void verify()} disabled={busy}>
          {busy ? 'Verifying…' : 'Verify chain'}
        </button>
        <div role="status" aria-live="polite">
          {error && <p class="error">{error}</p>}
          {report &&
            (report.result.ok ? (
              <p class="verdict ok">
                ✓ INTACT: {report.result.checked} intervention(s) of tenant {report.tenant} verified.
                {report.head && (
                  <>
                    {' '}
                    Head #{report.head.seq} <code class="wrap">{report.head.hash}</code>: keep it outside the database
                    to detect a truncated tail later.
                  </>
                )}
              </p>
            ) : (
              <p class="verdict broken">
                ✗ BROKEN at #{report.result.firstBrokenSeq}: {report.result.reason} ({report.result.checked} verified
                intact before it)
              </p>
            ))}
        </div>
      </section>
    </>
  );
}

/**
 * The API verifies one page of the chain per request (bounded cost, metered per tenant): follow `next` to the
 * head and add the pages' verdicts up, waiting out a 429 (the tenant's read quota) as the CLI does.
 */
async function verifyWholeChain(): Promise<ChainReport> {
  let checked = 0;
  let cursor: string | null = null;
  for (;;) {
    let page: ChainReport;
    try {
      page = await api<ChainReport>(`/v1/audit/verify${cursor === null ? '' : `?cursor=${cursor}`}`);
    } catch (caught) {
      if (caught instanceof HttpError && caught.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      throw caught;
    }
    checked += page.result.checked;
    if (!page.result.ok || page.next === null) return { ...page, result: { ...page.result, checked } };
    cursor = page.next;
  }
}

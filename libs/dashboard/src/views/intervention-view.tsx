import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { classText, nextActionText } from '../format.js';
import { useLoaded } from '../hooks.js';
import type { InterventionDetail } from '../types.js';
import { ActionDialog, type ActionTarget } from './action-dialog.js';
import { FailureClass, Level, runHref, Show, TableBox } from './common.js';

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** One intervention's DiagnosticArtifact in full, with the events that caused it. */
export function InterventionView({ id, version }: { id: string; version: number }) {
  const detail = useLoaded(
    () => api<InterventionDetail>(`/v1/audit/interventions/${encodeURIComponent(id)}`),
    [id, version],
  );
  const [action, setAction] = useState<ActionTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Show value={detail}>
      {(d) => {
        const a = d.artifact;
        const label = `${d.toolName} (${classText(d.failureClass)})`;
        return (
          <article class="drill" aria-labelledby="drill-title">
            <p>
              <a href="#/">← Fleet now</a>
            </p>
            <h1 id="drill-title">
              <Level level={d.level} /> <FailureClass value={d.failureClass} /> on <code>{d.toolName}</code>
            </h1>
            <p class="next">
              Next allowed action: <strong>{nextActionText(a.next_allowed_action)}</strong>
            </p>
            {notice && (
              <p class="notice" role="status">
                {notice}
              </p>
            )}
            <div class="actions">
              <button type="button" onClick={() => setAction({ keyId: d.keyId, label, mode: 'acknowledge' })}>
                Acknowledge key
              </button>
              <button type="button" onClick={() => setAction({ keyId: d.keyId, label, mode: 'resolve' })}>
                Resolve key
              </button>
              {d.run && <a href={runHref(d.run)}>Timeline of run {d.run}</a>}
            </div>
            <section aria-labelledby="why-title">
              <h2 id="why-title">Why</h2>
              <p class="justification">{a.safety_justification}</p>
              <p class="muted">
                Classified as {classText(a.failure_class)} because: {a.classification_reason}
              </p>
              {a.reclassification && (
                <p class="reclassified" data-testid="reclassification">
                  Reclassified from {classText(a.reclassification.from)} to {classText(a.reclassification.to)} by{' '}
                  <code>{a.reclassification.by}</code> at {a.reclassification.at} (event{' '}
                  <code>{a.reclassification.event_id}</code>): the key's error_class keeps the class it opened with.
                </p>
              )}
            </section>
            <div class="columns">
              <section aria-labelledby="key-title">
                <h2 id="key-title">Equivalence key</h2>
                <dl class="fields">
                  <dt>tool_name</dt>
                  <dd>
                    <code>{a.equivalence_key.tool_name}</code>
                  </dd>
                  <dt>resource_class</dt>
                  <dd>{a.equivalence_key.resource_class ?? '—'}</dd>
                  <dt>auth_scope</dt>
                  <dd>{a.equivalence_key.auth_scope ?? '—'}</dd>
                  <dt>error_class</dt>
                  <dd>{a.equivalence_key.error_class}</dd>
                  <dt>side_effect_boundary</dt>
                  <dd>{yesNo(a.equivalence_key.side_effect_boundary)}</dd>
                  <dt>scope</dt>
                  <dd>{a.scope}</dd>
                  <dt>principal</dt>
                  <dd>{a.principal ?? '—'}</dd>
                  <dt>resource_id</dt>
                  <dd>{a.resource_id ?? '—'}</dd>
                  <dt>run</dt>
                  <dd>{a.run ? <a href={runHref(a.run)}>{a.run}</a> : '—'}</dd>
                  <dt>key_id</dt>
                  <dd>
                    <code class="wrap">{a.key_id}</code>
                  </dd>
                </dl>
              </section>
              <section aria-labelledby="budget-title">
                <h2 id="budget-title">Budget and verifier</h2>
                <dl class="fields">
                  <dt>budget</dt>
                  <dd>+{a.budget}</dd>
                  <dt>retry_count</dt>
                  <dd>{a.retry_count}</dd>
                  <dt>budget_exhausted</dt>
                  <dd>{yesNo(a.budget_exhausted)}</dd>
                  <dt>verifier_required</dt>
                  <dd>{a.verifier_required ?? '—'}</dd>
                  <dt>verifier_status</dt>
                  <dd>{a.verifier_status}</dd>
                  <dt>policy_version</dt>
                  <dd>
                    <code class="wrap">{a.policy_version}</code>
                  </dd>
                  <dt>state_version</dt>
                  <dd>{a.state_version}</dd>
                  <dt>issued</dt>
                  <dd>
                    <time dateTime={d.issuedAt}>{d.issuedAt}</time>
                  </dd>
                  <dt>audit seq · hash</dt>
                  <dd>
                    #{d.seq} · <code class="wrap">{d.hash}</code>
                  </dd>
                </dl>
              </section>
            </div>
            <section aria-labelledby="receipts-title">
              <h2 id="receipts-title">Sample receipts (last {a.sample_receipts.length}, redacted)</h2>
              <ol class="receipts">
                {a.sample_receipts.map((receipt, index) => (
                  <li key={index}>
                    <pre>{receipt}</pre>
                  </li>
                ))}
              </ol>
              {a.side_effect_evidence.length > 0 && (
                <>
                  <h3>Side-effect evidence</h3>
                  <ul>
                    {a.side_effect_evidence.map((line, index) => (
                      <li key={index}>{line}</li>
                    ))}
                  </ul>
                </>
              )}
            </section>
            <section aria-labelledby="cause-title">
              <h2 id="cause-title">Causation: the events behind this decision</h2>
              <TableBox label="Causing events">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Event</th>
                      <th scope="col">Run · agent</th>
                      <th scope="col">Event id</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.causingEvents.map((event) => (
                      <tr key={event.id}>
                        <td>
                          <time dateTime={event.occurredAt}>{event.occurredAt}</time>
                        </td>
                        <td>
                          <details>
                            <summary>{event.type}</summary>
                            <pre>{JSON.stringify(event.cloudEvent, null, 2)}</pre>
                          </details>
                        </td>
                        <td>
                          {event.run ? <a href={runHref(event.run)}>{event.run}</a> : '—'} · {event.agent ?? '—'}
                        </td>
                        <td>
                          <code class="wrap">{event.id}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
              {d.causingEvents.length < a.causing_event_ids.length && (
                <p class="muted">
                  {a.causing_event_ids.length - d.causingEvents.length} causing event(s) are no longer stored.
                </p>
              )}
            </section>
            <ActionDialog
              target={action}
              onClose={() => setAction(null)}
              onDone={(message) => {
                setAction(null);
                setNotice(message);
              }}
            />
          </article>
        );
      }}
    </Show>
  );
}

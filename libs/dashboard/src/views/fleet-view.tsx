import { useMemo, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { chartColumns, totalsOf, type ChartDimension } from '../chart-data.js';
import { ago, classText, nextActionText, perMinute, resourceText } from '../format.js';
import { useLoaded, useNow } from '../hooks.js';
import type { FleetNow, InterventionRecord, LiveSignal } from '../types.js';
import { ActionDialog, type ActionTarget } from './action-dialog.js';
import { Chart } from './chart.js';
import { FailureClass, interventionHref, Level, Show, TableBox } from './common.js';

const WINDOWS = ['1h', '6h', '24h', '7d'] as const;

/** Fleet now: who is blocked or paged, by what, how often, and what to do next. */
export function FleetView({ version, recent }: { version: number; recent: LiveSignal[] }) {
  const [span, setSpan] = useState<(typeof WINDOWS)[number]>('1h');
  const [by, setBy] = useState<ChartDimension>('level');
  const [action, setAction] = useState<ActionTarget | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [ownChanges, setOwnChanges] = useState(0);
  const fleet = useLoaded(
    () => api<FleetNow>(`/v1/dashboard/fleet${query({ window: span })}`),
    [span, version, ownChanges],
  );
  const latest = useLoaded(
    () => api<{ items: InterventionRecord[] }>(`/v1/audit/interventions${query({ limit: 15 })}`),
    [version, ownChanges],
  );
  const now = useNow();
  const liveIds = useMemo(() => new Set(recent.map((s) => s.id)), [recent]);

  return (
    <>
      <h1>Fleet now</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <Show value={fleet}>
        {(data) => (
          <>
            <Summary data={data} />
            <section aria-labelledby="held-title">
              <h2 id="held-title">
                Keys blocked or paged now{' '}
                <span class="count">
                  ({data.heldTotal}
                  {data.heldTotal > data.held.length ? `, the newest ${data.held.length} shown` : ''})
                </span>
              </h2>
              {data.held.length === 0 ? (
                <p>No key is blocked or paged: the fleet may proceed.</p>
              ) : (
                <TableBox label="Keys blocked or paged now">
                  <table class="held">
                    <thead>
                      <tr>
                        <th scope="col">Level</th>
                        <th scope="col">Class</th>
                        <th scope="col">Principal</th>
                        <th scope="col">Tool</th>
                        <th scope="col">Resource</th>
                        <th scope="col">Next allowed action</th>
                        <th scope="col">Retries</th>
                        <th scope="col">Last</th>
                        <th scope="col">Operator</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.held.map((key) => (
                        <tr key={key.keyId} data-key-id={key.keyId}>
                          <td>
                            <Level level={key.level} />
                            {key.acknowledged && <span class="ack"> ✓ acknowledged</span>}
                          </td>
                          <td>
                            <FailureClass value={key.failureClass} />
                          </td>
                          <td>{key.principal ?? (key.run ? `run ${key.run}` : '—')}</td>
                          <td>
                            <code>{key.toolName}</code>
                          </td>
                          <td>{resourceText(key.resourceClass, key.resourceId)}</td>
                          <td>
                            <a href={interventionHref(key.interventionId)}>{nextActionText(key.nextAction)}</a>
                          </td>
                          <td>
                            {key.retryCount}/{key.budget}
                          </td>
                          <td>
                            <time dateTime={key.issuedAt} title={key.issuedAt}>
                              {ago(key.issuedAt, now)}
                            </time>{' '}
                            <span class="muted">({key.interventions}×)</span>
                          </td>
                          <td class="actions">
                            <button
                              type="button"
                              onClick={() =>
                                setAction({
                                  keyId: key.keyId,
                                  label: `${key.toolName} (${classText(key.failureClass)})`,
                                  mode: 'acknowledge',
                                })
                              }
                            >
                              Acknowledge
                            </button>
                            <button
                              type="button"
                              onClick={() =>
                                setAction({
                                  keyId: key.keyId,
                                  label: `${key.toolName} (${classText(key.failureClass)})`,
                                  mode: 'resolve',
                                })
                              }
                            >
                              Resolve
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableBox>
              )}
            </section>
            <section aria-labelledby="chart-title">
              <h2 id="chart-title">Interventions over time</h2>
              <div class="controls" role="group" aria-label="Chart options">
                <label>
                  Window{' '}
                  <select
                    value={span}
                    onChange={(event) => setSpan((event.target as HTMLSelectElement).value as (typeof WINDOWS)[number])}
                  >
                    {WINDOWS.map((w) => (
                      <option value={w} key={w}>
                        last {w}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Lines by{' '}
                  <select
                    value={by}
                    onChange={(event) => setBy((event.target as HTMLSelectElement).value as ChartDimension)}
                  >
                    <option value="level">level</option>
                    <option value="failureClass">class</option>
                  </select>
                </label>
              </div>
              <SeriesChart data={data} by={by} />
            </section>
            <div class="columns">
              <Breakdown data={data} />
              <section aria-labelledby="hot-title">
                <h2 id="hot-title">Hottest keys (last {data.window.name})</h2>
                {data.hottest.length === 0 ? (
                  <p>No interventions in this window.</p>
                ) : (
                  <ol class="hot">
                    {data.hottest.map((key) => (
                      <li key={key.keyId}>
                        <strong>{key.interventions}×</strong> <Level level={key.level} /> <code>{key.toolName}</code>{' '}
                        <FailureClass value={key.failureClass} /> {key.principal && <>· {key.principal}</>}{' '}
                        {resourceText(key.resourceClass, key.resourceId) !== '—' && (
                          <>· {resourceText(key.resourceClass, key.resourceId)}</>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            </div>
            <section aria-labelledby="loops-title">
              <h2 id="loops-title">Fleet-wide loops</h2>
              {data.loops.length === 0 ? (
                <p>No tool call that several runs looped on.</p>
              ) : (
                <ol class="hot loops">
                  {data.loops.map((loop) => (
                    <li key={`${loop.tool} ${loop.callDigest}`}>
                      <strong>{loop.runs} runs</strong> <Level level={loop.level} /> <code>{loop.tool}</code>{' '}
                      <span class="muted" title={loop.callDigest}>
                        arguments {loop.callDigest.slice(0, 12)}
                      </span>{' '}
                      · last seen {ago(loop.lastSeen, now)}
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </>
        )}
      </Show>
      <section aria-labelledby="latest-title">
        <h2 id="latest-title">Latest interventions</h2>
        <Show value={latest}>
          {(page) =>
            page.items.length === 0 ? (
              <p>
                No intervention yet. Try <code>npx tokencircuit demo</code>.
              </p>
            ) : (
              <ol class="latest" aria-live="polite">
                {page.items.map((item) => (
                  <li key={item.id} data-intervention-id={item.id} class={liveIds.has(item.id) ? 'arrived' : ''}>
                    {liveIds.has(item.id) && <span class="new-mark">NEW </span>}
                    <a href={interventionHref(item.id)}>
                      <Level level={item.level} /> <FailureClass value={item.failureClass} /> on{' '}
                      <code>{item.toolName}</code>
                    </a>{' '}
                    → <span class="next-action">{nextActionText(item.nextAction)}</span>{' '}
                    <span class="muted">
                      {item.principal ? `${item.principal} · ` : ''}
                      {item.run ? `run ${item.run} · ` : ''}
                      <time dateTime={item.issuedAt} title={item.issuedAt}>
                        {ago(item.issuedAt, now)}
                      </time>
                    </span>
                  </li>
                ))}
              </ol>
            )
          }
        </Show>
      </section>
      <ActionDialog
        target={action}
        onClose={() => setAction(null)}
        onDone={(message) => {
          setAction(null);
          setNotice(message);
          setOwnChanges((n) => n + 1);
        }}
      />
    </>
  );
}

function Summary({ data }: { data: FleetNow }) {
  const columns = chartColumns(data.series, data.window, 'level');
  const totals = totalsOf(columns);
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  const seconds = (Date.parse(data.window.to) - Date.parse(data.window.from)) / 1000;
  const paged = data.held.filter((k) => k.level === 'page').length;
  return (
    <dl class="summary">
      <div>
        <dt>Keys held now</dt>
        <dd>{data.heldTotal}</dd>
      </div>
      <div>
        <dt>of which paging</dt>
        <dd>{paged}</dd>
      </div>
      <div>
        <dt>Interventions, last {data.window.name}</dt>
        <dd>{all}</dd>
      </div>
      <div>
        <dt>Rate per minute</dt>
        <dd>{perMinute(all, seconds)}</dd>
      </div>
      {['page', 'block', 'advise'].map((level) => (
        <div key={level}>
          <dt>
            <Level level={level} />
          </dt>
          <dd>
            {totals[level] ?? 0} <span class="muted">({perMinute(totals[level] ?? 0, seconds)}/min)</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function SeriesChart({ data, by }: { data: FleetNow; by: ChartDimension }) {
  const columns = useMemo(() => chartColumns(data.series, data.window, by), [data, by]);
  const totals = totalsOf(columns);
  return (
    <>
      <Chart
        columns={columns}
        title={`Interventions per ${data.window.bucketSeconds / 60} min, by ${by === 'level' ? 'level' : 'class'}`}
      />
      <details>
        <summary>Totals as a table</summary>
        <table class="compact">
          <thead>
            <tr>
              <th scope="col">{by === 'level' ? 'Level' : 'Class'}</th>
              <th scope="col">Interventions</th>
            </tr>
          </thead>
          <tbody>
            {columns.series.map((s) => (
              <tr key={s.name}>
                <th scope="row">{s.name.replace(/_/g, ' ')}</th>
                <td>{totals[s.name]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

function Breakdown({ data }: { data: FleetNow }) {
  const dimensions = [
    ['principal', 'By principal'],
    ['tool', 'By tool'],
    ['resource', 'By resource'],
    ['class', 'By class'],
  ] as const;
  return (
    <section aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">Held keys by principal, tool, resource and class</h2>
      <div class="breakdown">
        {dimensions.map(([name, title]) => (
          <table class="compact" key={name}>
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{name}</th>
                <th scope="col">keys</th>
                <th scope="col">paging</th>
              </tr>
            </thead>
            <tbody>
              {data.breakdown[name].length === 0 ? (
                <tr>
                  <td colSpan={3}>—</td>
                </tr>
              ) : (
                data.breakdown[name].slice(0, 8).map((row) => (
                  <tr key={row.value}>
                    <th scope="row">{name === 'class' ? classText(row.value) : row.value}</th>
                    <td>{row.keys}</td>
                    <td>{row.paged}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        ))}
      </div>
    </section>
  );
}

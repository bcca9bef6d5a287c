import { api } from '../api.js';
import { useLoaded } from '../hooks.js';
import type { SpendByFailureRecord, SpendByToolRecord, SpendLineRecord } from '../types.js';
import { RecordTable, runHref, Show } from './common.js';

interface SpendData {
  readonly currency: string | null;
  readonly lines: readonly (SpendLineRecord & { readonly usedRatio: number })[];
  readonly byTool: readonly SpendByToolRecord[];
  readonly byFailure: readonly SpendByFailureRecord[];
}

/** Ledger units as people read them: cost in micro-units back to the currency. */
const amount = (meter: string, value: number, currency: string | null): string =>
  meter === 'cost' ? `${(value / 1_000_000).toFixed(2)} ${currency ?? ''}`.trim() : value.toLocaleString('en');

/** Spend against budget (docs/budgets.md): the fullest budget lines first, and what each agent's tools used today. */
export function SpendView({ version }: { version: number }) {
  const loaded = useLoaded(() => api<SpendData>('/v1/dashboard/spend'), [version]);
  return (
    <Show value={loaded}>
      {(data) => (
        <>
          <h1>Spend</h1>
          <h2>Budgets, fullest first</h2>
          {data.lines.length === 0 ? (
            <p>No budget has been used yet.</p>
          ) : (
            <RecordTable
              label="Budget lines"
              columns={['Budget', 'Whose', 'Window', 'Spent', 'Reserved', 'Limit', 'Used']}
              records={data.lines}
              rowKey={(l) => `${l.budgetId}|${l.subject}|${l.window}`}
              cells={(l) => [
                l.budgetId,
                l.window === 'run' ? <a href={runHref(l.subject)}>{l.subject}</a> : l.subject,
                l.window,
                amount(l.meter, l.spent, data.currency),
                amount(l.meter, l.reserved, data.currency),
                amount(l.meter, l.limit, data.currency),
                <>
                  <meter min={0} max={1} low={0.8} high={0.95} optimum={0} value={Math.min(1, l.usedRatio)} />{' '}
                  {Math.round(l.usedRatio * 100)} %
                </>,
              ]}
            />
          )}
          <h2>Usage per agent and tool, last 24 hours</h2>
          {data.byTool.length === 0 ? (
            <p>No usage reported.</p>
          ) : (
            <RecordTable
              label="Usage per agent and tool"
              columns={['Agent', 'Tool', 'Calls', 'Tokens', 'Cost']}
              records={data.byTool}
              rowKey={(u) => `${u.agent}|${u.tool}`}
              cells={(u) => [
                u.agent,
                u.tool,
                u.calls.toLocaleString('en'),
                u.tokens.toLocaleString('en'),
                amount('cost', u.cost, data.currency),
              ]}
            />
          )}
          <h2>Spend caused by failures, last 24 hours</h2>
          {data.byFailure.length === 0 ? (
            <p>No failing key has spent anything.</p>
          ) : (
            <RecordTable
              label="Spend per failure class and key"
              columns={['Class', 'Key', 'Tool', 'Status', 'Calls', 'Tokens', 'Cost']}
              records={data.byFailure}
              rowKey={(f) => f.keyId}
              cells={(f) => [
                f.failureClass,
                <code>{f.keyId}</code>,
                f.tool,
                f.status,
                f.calls.toLocaleString('en'),
                f.tokens.toLocaleString('en'),
                amount('cost', f.cost, data.currency),
              ]}
            />
          )}
        </>
      )}
    </Show>
  );
}

import { api } from '../api.js';
import { useLoaded } from '../hooks.js';
import { runHref, Show, TableBox } from './common.js';

interface SpendLine {
  readonly budgetId: string;
  readonly subject: string;
  readonly window: string;
  readonly meter: string;
  readonly limit: number;
  readonly spent: number;
  readonly reserved: number;
  readonly usedRatio: number;
}
interface SpendByTool {
  readonly agent: string;
  readonly tool: string;
  readonly calls: number;
  readonly tokens: number;
  readonly cost: number;
}
interface SpendByFailure {
  readonly failureClass: string;
  readonly keyId: string;
  readonly tool: string;
  readonly status: string;
  readonly calls: number;
  readonly tokens: number;
  readonly cost: number;
}
interface SpendData {
  readonly currency: string | null;
  readonly lines: readonly SpendLine[];
  readonly byTool: readonly SpendByTool[];
  readonly byFailure: readonly SpendByFailure[];
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
            <TableBox label="Budget lines">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Budget</th>
                    <th scope="col">Whose</th>
                    <th scope="col">Window</th>
                    <th scope="col">Spent</th>
                    <th scope="col">Reserved</th>
                    <th scope="col">Limit</th>
                    <th scope="col">Used</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((l) => (
                    <tr key={`${l.budgetId}|${l.subject}|${l.window}`}>
                      <td>{l.budgetId}</td>
                      <td>{l.window === 'run' ? <a href={runHref(l.subject)}>{l.subject}</a> : l.subject}</td>
                      <td>{l.window}</td>
                      <td>{amount(l.meter, l.spent, data.currency)}</td>
                      <td>{amount(l.meter, l.reserved, data.currency)}</td>
                      <td>{amount(l.meter, l.limit, data.currency)}</td>
                      <td>
                        <meter min={0} max={1} low={0.8} high={0.95} optimum={0} value={Math.min(1, l.usedRatio)} />{' '}
                        {Math.round(l.usedRatio * 100)} %
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
          <h2>Usage per agent and tool, last 24 hours</h2>
          {data.byTool.length === 0 ? (
            <p>No usage reported.</p>
          ) : (
            <TableBox label="Usage per agent and tool">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Calls</th>
                    <th scope="col">Tokens</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {data.byTool.map((u) => (
                    <tr key={`${u.agent}|${u.tool}`}>
                      <td>{u.agent}</td>
                      <td>{u.tool}</td>
                      <td>{u.calls.toLocaleString('en')}</td>
                      <td>{u.tokens.toLocaleString('en')}</td>
                      <td>{amount('cost', u.cost, data.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
          <h2>Spend caused by failures, last 24 hours</h2>
          {data.byFailure.length === 0 ? (
            <p>No failing key has spent anything.</p>
          ) : (
            <TableBox label="Spend per failure class and key">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Class</th>
                    <th scope="col">Key</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Status</th>
                    <th scope="col">Calls</th>
                    <th scope="col">Tokens</th>
                    <th scope="col">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {data.byFailure.map((f) => (
                    <tr key={f.keyId}>
                      <td>{f.failureClass}</td>
                      <td>
                        <code>{f.keyId}</code>
                      </td>
                      <td>{f.tool}</td>
                      <td>{f.status}</td>
                      <td>{f.calls.toLocaleString('en')}</td>
                      <td>{f.tokens.toLocaleString('en')}</td>
                      <td>{amount('cost', f.cost, data.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
          )}
        </>
      )}
    </Show>
  );
}

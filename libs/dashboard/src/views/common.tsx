import type { ComponentChildren } from 'preact';
import { classText, levelText } from '../format.js';
import type { Loaded } from '../hooks.js';

export function Level({ level }: { level: string }) {
  return <span class={`level level-${level}`}>{levelText(level)}</span>;
}

export function FailureClass({ value }: { value: string }) {
  return <span class="class">{classText(value)}</span>;
}

export const interventionHref = (id: string): string => `#/interventions/${encodeURIComponent(id)}`;
export const runHref = (run: string): string => `#/runs/${encodeURIComponent(run)}`;

/** Shows a loading or error line, or its children once the data is there. */
export function Show<T>({ value, children }: { value: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (value.state === 'loading') return <p class="page-status">Loading…</p>;
  if (value.state === 'error')
    return (
      <p class="error" role="alert">
        {value.error.message}
      </p>
    );
  return <>{children(value.data)}</>;
}

/** A table that scrolls sideways on a narrow screen instead of squeezing its columns. */
export function TableBox({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A table of records in a TableBox: a header row of column names, then a row per record with one cell per column
 * (`cells` gives them in the columns' order).
 */
export function RecordTable<T>({
  label,
  columns,
  records,
  rowKey,
  cells,
}: {
  label: string;
  columns: readonly string[];
  records: readonly T[];
  rowKey: (record: T) => string;
  cells: (record: T) => readonly ComponentChildren[];
}) {
  return (
    <TableBox label={label}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={rowKey(record)}>
              {cells(record).map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

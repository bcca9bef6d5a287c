/** A key blocked or paged now, as the fleet view lists it. */
export interface HeldKey {
  readonly keyId: string;
  readonly scope: string;
  readonly status: string;
  readonly run: string | null;
  readonly principal: string | null;
  readonly toolName: string;
  readonly resourceClass: string | null;
  readonly resourceId: string | null;
  readonly failureClass: string;
  readonly retryCount: number;
  readonly budget: number;
  readonly acknowledged: boolean;
  readonly level: string;
  readonly nextAction: string;
  readonly interventionId: string;
  readonly issuedAt: string;
  readonly interventions: number;
}

export interface BreakdownRow {
  readonly value: string;
  readonly keys: number;
  readonly paged: number;
}

export interface FleetBreakdown {
  readonly principal: BreakdownRow[];
  readonly tool: BreakdownRow[];
  readonly resource: BreakdownRow[];
  readonly class: BreakdownRow[];
}

/** Shown for a key without that dimension (a run-scoped key has no fleet principal, for instance). */
export const NONE = '(none)';

const resourceOf = (key: HeldKey): string =>
  key.resourceClass === null && key.resourceId === null
    ? NONE
    : [key.resourceClass, key.resourceId].filter((part) => part !== null).join(': ');

/** Held keys counted by principal, tool, resource and class; largest first, then by name. */
export function breakdownOf(keys: readonly HeldKey[]): FleetBreakdown {
  const count = (dimension: (key: HeldKey) => string): BreakdownRow[] => {
    const rows = new Map<string, { keys: number; paged: number }>();
    for (const key of keys) {
      const value = dimension(key);
      const row = rows.get(value) ?? { keys: 0, paged: 0 };
      row.keys += 1;
      if (key.level === 'page') row.paged += 1;
      rows.set(value, row);
    }
    return [...rows]
      .map(([value, row]) => ({ value, ...row }))
      .sort((a, b) => b.keys - a.keys || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  };
  return {
    principal: count((key) => key.principal ?? NONE),
    tool: count((key) => key.toolName),
    resource: count(resourceOf),
    class: count((key) => key.failureClass),
  };
}

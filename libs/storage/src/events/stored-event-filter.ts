/** Which stored agent events a whole-table read takes: all of them, or one tenant's, or a time range's. */
export interface StoredEventFilter {
  readonly tenant?: string;
  /** ISO timestamps on occurred_at: from inclusive, to exclusive. */
  readonly from?: string;
  readonly to?: string;
}

/** The filter's conditions after `seq > $1`, as SQL over its parameters $2 (tenant), $3 (from) and $4 (to). */
export const STORED_EVENT_FILTER_SQL = `($2::text IS NULL OR tenant = $2::text)
  AND ($3::timestamptz IS NULL OR occurred_at >= $3::timestamptz)
  AND ($4::timestamptz IS NULL OR occurred_at < $4::timestamptz)`;

export const storedEventFilterParams = (filter: StoredEventFilter): unknown[] => [
  filter.tenant ?? null,
  filter.from ?? null,
  filter.to ?? null,
];

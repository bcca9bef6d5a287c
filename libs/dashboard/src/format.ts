/** Pure text helpers of the page: what each code means to a person. */

const NEXT_ACTION_TEXT: Record<string, string> = {
  retry_with_backoff: 'Retry with backoff, same intent',
  correct_arguments: 'Ask for corrected arguments',
  stop_request_authorization: 'Stop; request auth/scope change',
  discover_or_confirm_resource: 'Discover or confirm the resource',
  reconcile_before_retry: 'Reconcile (read-after-write) before any retry',
  fail_closed_page_human: 'Fail closed; page a human',
  verify_empty_result: 'Verify the empty result',
  forced_summary: 'Stop retrying; summarise',
  proceed: 'Proceed',
};

/** The RFC's "next allowed action" in words; unknown codes are shown as they are. */
export const nextActionText = (code: string): string => NEXT_ACTION_TEXT[code] ?? code;

/** Level words carry a symbol too, so they read the same without colour. */
export const LEVEL_MARK: Record<string, string> = { page: '▲', block: '■', advise: '○' };
export const levelText = (level: string): string => `${LEVEL_MARK[level] ?? '·'} ${level.toUpperCase()}`;

export const classText = (failureClass: string): string => failureClass.replace(/_/g, ' ');

/** "3 min ago"-style age of an instant, from the page's clock. */
export function ago(iso: string, now: number): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** "sql_namespace: finance", or the one part there is, or a dash. */
export function resourceText(resourceClass: string | null, resourceId: string | null): string {
  const parts = [resourceClass, resourceId].filter((part): part is string => part !== null && part !== '');
  return parts.length === 0 ? '—' : parts.join(': ');
}

/** Interventions per minute over a window, to one decimal. */
export function perMinute(count: number, seconds: number): string {
  return seconds <= 0 ? '0' : (count / (seconds / 60)).toFixed(count === 0 ? 0 : 2);
}

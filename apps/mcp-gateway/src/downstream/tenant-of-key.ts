import { createHash } from 'node:crypto';

/** How long a key the backend accepted is trusted without asking again; a revoked key stops within this. */
const TTL_MS = 60_000;
const MAX_KEYS = 10_000;

export type KeyCheck =
  | { readonly ok: true; readonly tenant: string }
  | { readonly ok: false; readonly status: 401 | 503; readonly message: string };

/**
 * The tenant a TokenCircuit API key belongs to, as the backend says (GET /v1/dashboard/session answers
 * `{ tenant }` for a key): the gateway holds no key list, so any replica authenticates any key. Accepted
 * keys are remembered by digest for a minute; refused ones are never remembered.
 */
export class TenantOfKey {
  private readonly known = new Map<string, { tenant: string; until: number }>();

  constructor(private readonly backendUrl: string) {}

  async check(apiKey: string): Promise<KeyCheck> {
    const digest = createHash('sha256').update(apiKey).digest('hex');
    const cached = this.known.get(digest);
    if (cached !== undefined && cached.until > Date.now()) return { ok: true, tenant: cached.tenant };
    let response: Response;
    try {
      response = await fetch(`${this.backendUrl}/v1/dashboard/session`, {
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(5_000),
      });
    } catch (error) {
      return { ok: false, status: 503, message: `governance unavailable: ${(error as Error).message}` };
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return { ok: false, status: 401, message: 'the TokenCircuit API key was refused' };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, status: 503, message: `governance unavailable: HTTP ${response.status}` };
    }
    const { tenant } = (await response.json()) as { tenant?: unknown };
    if (typeof tenant !== 'string') return { ok: false, status: 503, message: 'governance unavailable: no tenant' };
    if (this.known.size >= MAX_KEYS) this.known.delete(this.known.keys().next().value as string);
    this.known.set(digest, { tenant, until: Date.now() + TTL_MS });
    return { ok: true, tenant };
  }
}

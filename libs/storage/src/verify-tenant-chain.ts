import { GENESIS, verifyChain, type ChainAnchor, type ChainVerification } from './hash-chain.js';
import { readInterventionChain } from './read-intervention-chain.js';
import type { SqlSession } from './sql-database.js';

/** Verifies a tenant's whole chain page by page, so memory stays bounded however long it is. */
export async function verifyTenantChain(
  client: SqlSession,
  tenant: string,
  { pageSize = 1000 }: { readonly pageSize?: number } = {},
): Promise<ChainVerification> {
  let anchor: ChainAnchor = GENESIS;
  let checked = 0;
  for (;;) {
    const page = await readInterventionChain(client, tenant, { afterSeq: anchor.seq, limit: pageSize });
    const result = verifyChain(page, anchor);
    if (!result.ok) return { ...result, checked: checked + result.checked };
    checked += result.checked;
    const last = page.at(-1);
    if (!last || page.length < pageSize) return { ok: true, checked };
    anchor = last;
  }
}

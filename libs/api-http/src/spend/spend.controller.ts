import { Controller, Get, Inject, Query } from '@nestjs/common';
import { z } from 'zod';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import {
  readSpendByFailure,
  readSpendByTool,
  readSpendLines,
  type SpendByFailureRecord,
  type SpendByToolRecord,
  type SpendLineRecord,
} from '@tokencircuit/storage';
import type { ApiDatabase } from '../api-database.port.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import type { Clock } from '../clock.js';
import { validated } from '../http/validated.js';
import { API_DATABASE, CLOCK, GOVERNANCE_POLICY } from '../tokens.js';

const SpendQuerySchema = z
  .object({
    /** Only the lines of this subject (a run, an agent, a principal, the tenant). */
    subject: z.string().min(1).max(256).optional(),
    /** Usage per agent and tool over the last this many hours. */
    hours: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 31)
      .default(24),
  })
  .strict();

export interface SpendView {
  readonly currency: string | null;
  /** Budget lines, fullest first: spent and reserved against each limit (cost in micro-units of `currency`). */
  readonly lines: readonly (SpendLineRecord & { readonly usedRatio: number })[];
  /** Settled usage per agent and tool over the last `hours`. */
  readonly byTool: readonly SpendByToolRecord[];
  /** Settled usage over the last `hours` of the calls each failure key counted ("the retries of this key cost …"). */
  readonly byFailure: readonly SpendByFailureRecord[];
}

/** The dashboard's spend view: where the tenant stands against its budgets, read under its row-level security. */
@Controller('v1/dashboard/spend')
export class SpendController {
  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(GOVERNANCE_POLICY) private readonly policy: TokenCircuitConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async view(@AuthenticatedTenant() tenant: string, @Query() rawQuery: unknown): Promise<SpendView> {
    const query = validated(SpendQuerySchema, rawQuery);
    const since = new Date(this.clock().getTime() - query.hours * 3_600_000).toISOString();
    return this.db.tenants.read(tenant, async (session) => {
      const lines = await readSpendLines(session, query.subject ?? null, 200);
      const byTool = await readSpendByTool(session, since, 50);
      const byFailure = await readSpendByFailure(session, since, 50);
      return {
        currency: this.policy.spend?.currency ?? null,
        lines: lines.map((l) => ({
          ...l,
          usedRatio: Math.round(((l.spent + l.reserved) / l.limit) * 10_000) / 10_000,
        })),
        byTool,
        byFailure,
      };
    });
  }
}

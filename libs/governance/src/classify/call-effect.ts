import type { ToolCall } from '@tokencircuit/contracts';
import { httpMethodSemantics } from './http-method.js';
import { sqlStatementEffect } from './sql-statement.js';

/** What a call could do to the world if it ran: none, an idempotent write, or a non-idempotent one. */
export interface CallEffect {
  readonly kind: 'none' | 'idempotent' | 'non_idempotent';
  readonly evidence: readonly string[];
}

/**
 * Decides from facts, in this order:
 * - the SQL text: a write verb is what the database will execute, whatever the tool declared, so it
 *   overrides a declared "read" or "unknown" (a read-declared SQL tool that runs the model's DELETE is
 *   exactly the tool whose declaration is wrong);
 * - the declared effect: the tool's author knows what it does, so "write" and "idempotent_write" stand
 *   even over a SELECT (functions can write) or a POST (a POST can be made idempotent), and "read" stands
 *   over a POST (search, GraphQL queries and LLM calls are POSTs);
 * - for "unknown", RFC 9110 method semantics: safe methods change nothing, PUT/DELETE are idempotent,
 *   POST/PATCH/unregistered methods are not;
 * - nothing known: assume a non-idempotent write.
 */
export function callEffect(call: ToolCall): CallEffect {
  const evidence: string[] = [`declared_effect:${call.effect}`];
  const sql = call.sqlStatement ? sqlStatementEffect(call.sqlStatement) : null;
  if (sql) evidence.push(...sql.evidence);
  const method = call.httpMethod ? httpMethodSemantics(call.httpMethod) : null;
  if (method) evidence.push(`http_method:${method.method}`);

  switch (call.effect) {
    case 'write':
      return { kind: 'non_idempotent', evidence };
    case 'idempotent_write':
      return { kind: 'idempotent', evidence };
    case 'read':
      if (sql?.effect === 'write')
        return { kind: 'non_idempotent', evidence: [...evidence, 'sql_overrides_declared_read'] };
      return { kind: 'none', evidence };
    case 'unknown':
      if (sql) return { kind: sql.effect === 'read' ? 'none' : 'non_idempotent', evidence };
      if (method) return { kind: method.safe ? 'none' : method.idempotent ? 'idempotent' : 'non_idempotent', evidence };
      return { kind: 'non_idempotent', evidence };
    default: {
      const exhaustive: never = call.effect;
      return exhaustive;
    }
  }
}

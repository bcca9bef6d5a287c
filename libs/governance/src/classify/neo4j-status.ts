import {
  invariant,
  meaningOf,
  missingResource,
  permission,
  transient,
  validation,
  type ErrorMeaning,
  type Semantics,
} from './error-meaning.js';

/**
 * Neo4j status codes, "Neo.<classification>.<category>.<title>" (https://neo4j.com/docs/status-codes/current/).
 * The classification is the documented retry rule: a TransientError rolled the transaction back and may
 * be retried as it is; a ClientError must change before a retry; a DatabaseError is the server's own.
 */
export const NEO4J_CODE = /\bNeo\.(ClientError|TransientError|DatabaseError)\.([A-Za-z]+)\.([A-Za-z]+)\b/;

export function neo4jStatusMeaning(code: string): ErrorMeaning | null {
  const m = NEO4J_CODE.exec(code);
  if (!m) return null;
  const [, classification, category, title] = m as unknown as [string, string, string, string];
  return meaningOf(semanticsOf(classification, category, title), `neo4j:${m[0]}`);
}

function semanticsOf(classification: string, category: string, title: string): Semantics {
  if (classification === 'TransientError') {
    // Security.AuthenticationRateLimit is transient too: wait, then authenticate again.
    return transient('rolled_back');
  }
  if (classification === 'DatabaseError') return transient('indeterminate', { generic: true });
  if (category === 'Security') return permission();
  if (
    title === 'ConstraintValidationFailed' ||
    title.endsWith('AlreadyExists') ||
    title === 'EquivalentSchemaRuleAlreadyExists'
  ) {
    return invariant('rejected', { duplicateOnRetry: true });
  }
  if (title.endsWith('NotFound')) return missingResource();
  return validation({ generic: category !== 'Statement' && category !== 'Request' });
}

/** One family of secrets: what it looks like and what survives of it. */
export interface SecretRule {
  readonly kind: string;
  readonly pattern: RegExp;
  /** The replacement; receives the match and its groups like String.prototype.replace. */
  readonly replace: (match: string, ...groups: string[]) => string;
  /**
   * Literals one of which every text the rule can change contains (lower-case when the pattern ignores
   * case): text holding none of them cannot match, so redact() skips the regex. Most receipts hold
   * no secret, and running every rule's regex over every one of them was most of a receipt's cost.
   * A property spec holds each rule to its triggers.
   */
  readonly triggers: readonly string[];
  /**
   * For shapes that are only secrets in company (an AWS secret access key is 40 random characters):
   * the rule runs only on text this matches.
   */
  readonly context?: RegExp;
  /** Personal data rather than a credential: removed from free text, kept in identifiers (see redactSecrets). */
  readonly personal?: boolean;
}

export const marker = (kind: string): string => `[REDACTED:${kind}]`;

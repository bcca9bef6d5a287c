import { ConfigError } from '@tokencircuit/config';
import { PagerDutySecretRing } from '@tokencircuit/integrations';

export const PAGERDUTY_SECRETS_VARIABLE = 'TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS';

/** PagerDuty shows a subscription's secret once, as a long random string; shorter ones are not theirs. */
export const MIN_WEBHOOK_SECRET_CHARS = 16;

const TENANT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Parses TOKENCIRCUIT_PAGERDUTY_WEBHOOK_SECRETS ("tenant:secret,tenant2:secret2"): one PagerDuty webhook
 * subscription per tenant, the secret that signs a delivery names the tenant it acts for. A tenant may hold two
 * secrets while one rotates; one secret may not serve two tenants. Unset: the webhook route is off (404).
 * Problems name the entry and tenant, never the secret.
 */
export function parsePagerDutyWebhookSecrets(raw: string | undefined): PagerDutySecretRing {
  if (raw === undefined || raw.trim() === '') return PagerDutySecretRing.of([]);
  const problems: string[] = [];
  const pairs: Array<[string, string]> = [];
  const owners = new Map<string, string>();
  raw.split(',').forEach((part, index) => {
    const where = `${PAGERDUTY_SECRETS_VARIABLE}: entry ${index + 1}`;
    const entry = part.trim();
    const colon = entry.indexOf(':');
    if (colon < 0) {
      problems.push(`${where}: must be tenant:secret`);
      return;
    }
    const tenant = entry.slice(0, colon).trim();
    const secret = entry.slice(colon + 1).trim();
    if (!TENANT.test(tenant)) {
      problems.push(`${where}: tenant must be 1-128 of [A-Za-z0-9._-] starting with a letter or digit`);
      return;
    }
    if (secret.length < MIN_WEBHOOK_SECRET_CHARS || /\s/.test(secret)) {
      problems.push(
        `${where} (tenant "${tenant}"): the secret must be at least ${MIN_WEBHOOK_SECRET_CHARS} characters without whitespace (the one PagerDuty showed when the subscription was created)`,
      );
      return;
    }
    const owner = owners.get(secret);
    if (owner !== undefined && owner !== tenant) {
      problems.push(`${where} (tenant "${tenant}"): the same secret is already given to tenant "${owner}"`);
      return;
    }
    owners.set(secret, tenant);
    pairs.push([tenant, secret]);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return PagerDutySecretRing.of(pairs);
}

import type { NotifyConfigFile, Secret, SinkConfig } from './notify-config.js';
import { NotifyConfigSchema } from './notify-config.js';

/** A sink with its secrets read: what payload builders get. Never logged (see describeSink). */
export type ResolvedSink =
  | {
      readonly name: string;
      readonly type: 'pagerduty';
      readonly routingKey: string;
      readonly url: string;
      readonly severity: Extract<SinkConfig, { type: 'pagerduty' }>['severity'];
    }
  | { readonly name: string; readonly type: 'slack'; readonly webhookUrl: string }
  | { readonly name: string; readonly type: 'webhook'; readonly url: string; readonly secret: string }
  | { readonly name: string; readonly type: 'alertmanager'; readonly url: string; readonly activeHours: number };

export interface NotifyConfig {
  readonly dashboardUrl: string | null;
  readonly sinks: ReadonlyMap<string, ResolvedSink>;
  readonly routes: NotifyConfigFile['routes'];
}

/** Every problem of a routing file at once, each naming where it is. */
export class NotifyConfigError extends Error {
  override readonly name = 'NotifyConfigError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

const WHSEC = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/**
 * Validates a parsed routing file and reads its `{ "env": … }` secrets from `env`. Pure: the caller reads
 * the file. Problems name a JSON path and never echo a secret's value.
 */
export function loadNotifyConfig(json: unknown, env: Readonly<Record<string, string | undefined>>): NotifyConfig {
  const parsed = NotifyConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new NotifyConfigError(
      parsed.error.issues.map(
        (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(file)'}: ${issue.message}`,
      ),
    );
  }
  const problems: string[] = [];
  const secret = (value: Secret, path: string): string => {
    if (typeof value === 'string') return value;
    const found = env[value.env];
    if (found === undefined || found === '') problems.push(`${path}: environment variable ${value.env} is not set`);
    return found ?? '';
  };
  const sinks = new Map<string, ResolvedSink>();
  for (const [name, sink] of Object.entries(parsed.data.sinks)) {
    const at = `sinks.${name}`;
    switch (sink.type) {
      case 'pagerduty':
        sinks.set(name, {
          name,
          type: 'pagerduty',
          routingKey: secret(sink.routingKey, `${at}.routingKey`),
          url: sink.url,
          severity: sink.severity,
        });
        break;
      case 'slack': {
        const webhookUrl = secret(sink.webhookUrl, `${at}.webhookUrl`);
        if (webhookUrl !== '' && !/^https?:\/\//.test(webhookUrl))
          problems.push(`${at}.webhookUrl: must be an http(s) URL`);
        sinks.set(name, { name, type: 'slack', webhookUrl });
        break;
      }
      case 'webhook': {
        const url = secret(sink.url, `${at}.url`);
        const key = secret(sink.secret, `${at}.secret`);
        if (url !== '' && !/^https?:\/\//.test(url)) problems.push(`${at}.url: must be an http(s) URL`);
        if (key !== '' && !WHSEC.test(key))
          problems.push(`${at}.secret: must be whsec_ followed by base64 (Standard Webhooks)`);
        sinks.set(name, { name, type: 'webhook', url, secret: key });
        break;
      }
      case 'alertmanager':
        sinks.set(name, { name, type: 'alertmanager', url: sink.url, activeHours: sink.activeHours });
        break;
      default:
        return exhaustive(sink);
    }
  }
  if (problems.length > 0) throw new NotifyConfigError(problems);
  return { dashboardUrl: parsed.data.dashboardUrl ?? null, sinks, routes: parsed.data.routes };
}

/** The secret values of a sink, for redaction from anything logged or stored. */
export function secretsOf(sink: ResolvedSink): string[] {
  switch (sink.type) {
    case 'pagerduty':
      return [sink.routingKey];
    case 'slack':
      return [sink.webhookUrl];
    case 'webhook':
      return [sink.secret, sink.url];
    case 'alertmanager':
      return [];
    default:
      return exhaustive(sink);
  }
}

/** Replaces every secret value (and its URL-encoded form) in `text` with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join('***');
  }
  return out;
}

function exhaustive(value: never): never {
  throw new TypeError(`unexpected sink ${JSON.stringify(value)}`);
}

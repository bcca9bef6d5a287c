import { z } from 'zod';
import { DecisionLevelSchema, FailureClassSchema } from '@tokencircuit/contracts';

/** A secret: given inline, or named as an environment variable (`{ "env": "PD_ROUTING_KEY" }`) so the file holds none. */
export const SecretSchema = z.union([
  z.string().min(1),
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name') }).strict(),
]);
export type Secret = z.infer<typeof SecretSchema>;

const httpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//.test(v), { message: 'must be an http:// or https:// URL' });

/** PagerDuty Events API v2: one incident per episode (dedup_key = episode id). */
export const PagerDutySinkSchema = z
  .object({
    type: z.literal('pagerduty'),
    /** The integration's routing key (32 characters on a PagerDuty service's Events API v2 integration). */
    routingKey: SecretSchema,
    /** The enqueue endpoint; the EU region or a test receiver may differ. */
    url: httpUrl.default('https://events.pagerduty.com/v2/enqueue'),
    /** PagerDuty severity per TokenCircuit level. */
    severity: z
      .object({
        advise: z.enum(['critical', 'error', 'warning', 'info']).default('info'),
        block: z.enum(['critical', 'error', 'warning', 'info']).default('error'),
        page: z.enum(['critical', 'error', 'warning', 'info']).default('critical'),
      })
      .strict()
      .default({ advise: 'info', block: 'error', page: 'critical' }),
  })
  .strict();

/** Slack incoming webhook: a Block Kit message per step (incoming webhooks cannot edit a message, so a follow-up). */
export const SlackSinkSchema = z
  .object({
    type: z.literal('slack'),
    /** https://hooks.slack.com/services/…: the URL is the credential, so it is a secret. */
    webhookUrl: SecretSchema,
  })
  .strict();

/** Any HTTP endpoint, signed per the Standard Webhooks specification; the body is the episode CloudEvent. */
export const WebhookSinkSchema = z
  .object({
    type: z.literal('webhook'),
    url: z.union([httpUrl, SecretSchema]),
    /** The signing secret, `whsec_` + base64 (Standard Webhooks). */
    secret: SecretSchema,
  })
  .strict();

/** Alertmanager's /api/v2/alerts (base URL given; the path is added). */
export const AlertmanagerSinkSchema = z
  .object({
    type: z.literal('alertmanager'),
    url: httpUrl,
    /**
     * Alertmanager resolves an alert nobody re-sends after its resolve_timeout: an open episode's alert is
     * sent with endsAt this many hours after it opened, and with endsAt = the resolution time once resolved.
     */
    activeHours: z.number().positive().max(8_760).default(24),
  })
  .strict();

export const SinkSchema = z.discriminatedUnion('type', [
  PagerDutySinkSchema,
  SlackSinkSchema,
  WebhookSinkSchema,
  AlertmanagerSinkSchema,
]);
export type SinkConfig = z.infer<typeof SinkSchema>;
export type SinkType = SinkConfig['type'];

const names = z.array(z.string().min(1)).min(1);

/** Every listed field must match (a field left out matches anything); within a field, any listed value. */
export const RouteMatchSchema = z
  .object({
    level: z.array(DecisionLevelSchema).min(1).optional(),
    tenant: names.optional(),
    class: z.array(FailureClassSchema).min(1).optional(),
    tool: names.optional(),
    principal: names.optional(),
  })
  .strict();
export type RouteMatch = z.infer<typeof RouteMatchSchema>;

export const RouteSchema = z
  .object({
    match: RouteMatchSchema.default({}),
    sinks: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type Route = z.infer<typeof RouteSchema>;

/** The file TOKENCIRCUIT_NOTIFY_FILE names (docs/schemas/notify-config.schema.json). */
export const NotifyConfigSchema = z
  .object({
    /** Where an editor finds this file's JSON Schema; ignored by the notifier. */
    $schema: z.string().optional(),
    /** The fleet's public URL: notifications link to its dashboard (`<url>/dashboard/#/interventions/<id>`). */
    dashboardUrl: httpUrl.optional(),
    sinks: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'sink names are 1-64 of A-Z a-z 0-9 _ . -'), SinkSchema),
    routes: z.array(RouteSchema).min(1),
  })
  .strict()
  .superRefine((config, ctx) => {
    config.routes.forEach((route, r) =>
      route.sinks.forEach((name, s) => {
        if (!(name in config.sinks)) {
          ctx.addIssue({
            code: 'custom',
            path: ['routes', r, 'sinks', s],
            message: `no sink named "${name}" (sinks: ${Object.keys(config.sinks).join(', ') || 'none'})`,
          });
        }
      }),
    );
  });
export type NotifyConfigFile = z.infer<typeof NotifyConfigSchema>;

import { z } from 'zod';
import { NotifyConfigSchema } from './notify-config.js';

/**
 * The JSON Schema of the notifier's routing file (docs/schemas/notify-config.schema.json), generated from
 * the zod schema the notifier validates with. That every route names a defined sink is a rule across
 * fields JSON Schema does not state: the notifier checks it at start.
 */
export function notifyConfigJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(NotifyConfigSchema, {
    io: 'input',
    target: 'draft-07',
    unrepresentable: 'throw',
  });
  return {
    $schema,
    title: 'TokenCircuitNotifyConfig',
    description:
      'The notifier routing file (TOKENCIRCUIT_NOTIFY_FILE): named sinks (pagerduty, slack, webhook, alertmanager) ' +
      'and routes that send episode steps matching level, tenant, class, tool and principal to them. Secrets may ' +
      'be given as { "env": "VARIABLE" }.',
    ...body,
  };
}

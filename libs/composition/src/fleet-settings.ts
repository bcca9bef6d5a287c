import { loadAll } from '@tokencircuit/config';
import { loadApiConfig, type ApiConfig, type ApiSettings, type ApiModuleOptions } from '@tokencircuit/api-http';
import { loadDecisionConfig, type DecisionConfig, type DecisionSettings } from '@tokencircuit/decision-service';
import type { NotifyConfig } from '@tokencircuit/notifier';
import { loadNotifierConfig, type NotifierConfig, type NotifierSettings } from '@tokencircuit/notifier-service';
import { loadProjectorConfig, type ProjectorConfig, type ProjectorSettings } from '@tokencircuit/projector-service';
import type { FleetModuleName } from './fleet-order.js';

/** What every module runs with, whatever the mode: read from the same variables in both. */
export interface FleetSettings {
  readonly projector?: ProjectorSettings;
  readonly decision?: DecisionSettings;
  readonly notifier?: { readonly settings: NotifierSettings; readonly notify: NotifyConfig } | null;
  readonly api?: ApiSettings &
    Pick<ApiModuleOptions['config'], 'apiKeys' | 'pagerDutyWebhooks'> &
    Pick<ApiConfig, 'API_HTTP_PORT' | 'API_HTTP_HOST'>;
}

/** The connected modes' settings: each module's with its Kafka and Postgres connection (its own role's URL). */
export interface ConnectedSettings extends FleetSettings {
  readonly projector?: ProjectorConfig;
  readonly decision?: DecisionConfig;
  readonly notifier?: { readonly settings: NotifierConfig; readonly notify: NotifyConfig } | null;
  readonly api?: ApiConfig;
}

/**
 * The settings of `modules`, read from the environment once, every problem reported together (exit 2). The
 * notifier is loaded only with a routing file when it is optional (the fleet); a standalone notifier needs one.
 */
export function loadConnectedSettings(
  env: Record<string, string | undefined>,
  modules: readonly FleetModuleName[],
  options: { readonly notifierOptional?: boolean } = {},
): ConnectedSettings {
  const wants = (name: FleetModuleName) => modules.includes(name);
  const [projector, decision, api, notifier] = loadAll(
    () => (wants('projector') ? loadProjectorConfig(env) : undefined),
    () => (wants('decision') ? loadDecisionConfig(env) : undefined),
    () => (wants('api') ? loadApiConfig(env) : undefined),
    // Validated before anything starts: a bad routing file stops the start with exit 2, like any config.
    () => {
      if (!wants('notifier') || (options.notifierOptional && !env.TOKENCIRCUIT_NOTIFY_FILE)) return null;
      const settings = loadNotifierConfig(env);
      return { settings, notify: settings.notify };
    },
  );
  return { projector, decision, api, notifier };
}

import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { runApp } from '@tokencircuit/service-kit';
import { DecisionModule, loadDecisionConfig } from '@tokencircuit/decision-service';

void runApp('decision', () => {
  const config = loadDecisionConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'decision' } });
  return {
    module: DecisionModule.forRoot(config, policy, log),
    log,
    port: config.DECISION_HTTP_PORT,
    host: config.DECISION_HTTP_HOST,
  };
});

import type { Colours } from '../io/colours.js';
import { interventionText } from '../render/intervention-text.js';
import type { ScenarioPlay } from './play-scenario.js';

/** A played scenario for a person: what the agent did, what preflight answered, what the engine decided and why. */
export function scenarioText(play: ScenarioPlay, c: Colours): string[] {
  const { scenario } = play;
  const lines = [
    c.bold(c.cyan(`${scenario.title}`)) + ` — ${scenario.summary}`,
    c.dim(`  principal ${scenario.principal}`),
    `  ${c.underline('what the agent did')}`,
  ];
  for (const step of play.steps) {
    if (step.kind === 'event') {
      lines.push(`    → ${step.says} ${c.dim(`[${step.eventId}]`)}`);
      continue;
    }
    const verdict = step.answer.allow ? c.green('ALLOWED') : c.red('DENIED');
    const check = step.asExpected ? c.green('as expected') : c.bold(c.red(`expected ${step.expect}`));
    lines.push(`    ? ${step.says}`, `      preflight: ${verdict} (${check}) ${c.dim(step.answer.reason)}`);
  }
  lines.push(
    `  ${c.underline('what the engine decided')} ${c.dim(`(${play.interventions.length} intervention(s), exactly the ones the core predicts)`)}`,
  );
  for (const { detail, after } of play.interventions) {
    lines.push(...interventionText(detail, c, `after: ${after}`).map((line) => `    ${line}`));
  }
  lines.push('');
  return lines;
}

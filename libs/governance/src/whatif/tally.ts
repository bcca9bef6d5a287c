import type { InterventionTally } from './what-if-report.js';

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
const sorted = (counts: Map<string, number>) => Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));

/** Counts interventions by level, next action, class and tool; built into plain sorted records. */
export class TallyBuilder {
  private total = 0;
  private readonly byLevel = new Map<string, number>();
  private readonly byNextAction = new Map<string, number>();
  private readonly byClass = new Map<string, number>();
  private readonly byTool = new Map<string, number>();

  add(level: string, nextAction: string, failureClass: string, tool: string): void {
    this.total += 1;
    bump(this.byLevel, level);
    bump(this.byNextAction, nextAction);
    bump(this.byClass, failureClass);
    bump(this.byTool, tool);
  }

  build(): InterventionTally {
    return {
      total: this.total,
      byLevel: sorted(this.byLevel),
      byNextAction: sorted(this.byNextAction),
      byClass: sorted(this.byClass),
      byTool: sorted(this.byTool),
    };
  }
}

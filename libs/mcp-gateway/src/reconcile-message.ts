import type { ReconcileFinding } from './reconcile-check.js';

/**
 * What the model is told after the gateway reconciled an unknown outcome itself: what happened, then what to
 * do. Confirmed: the write took effect, so sending it again would duplicate it. Refuted: it did not, so a
 * new attempt is safe.
 */
export function reconcileMessage(tool: string, readTool: string, finding: ReconcileFinding | 'inconclusive'): string {
  switch (finding) {
    case 'confirmed':
      return (
        `The outcome of ${tool} was unknown, so TokenCircuit checked with ${readTool}: it took effect. ` +
        'Do not send it again; go on as if it succeeded.'
      );
    case 'refuted':
      return (
        `The outcome of ${tool} was unknown, so TokenCircuit checked with ${readTool}: it did not take effect. ` +
        'You may send it again.'
      );
    case 'inconclusive':
      return (
        `The outcome of ${tool} is unknown and TokenCircuit could not check it with ${readTool}. ` +
        'Do not send it again; tell the user it needs checking.'
      );
  }
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { RESOLVE_CHOICES, type ResolveChoice } from './resolution-kinds.js';

export type OperatorAction = 'acknowledged' | ResolveChoice;

export interface ActionTarget {
  readonly keyId: string;
  readonly label: string;
  readonly mode: 'acknowledge' | 'resolve';
}

const OPERATOR_KEY = 'tokencircuit.operator';

/**
 * Acknowledge or resolve a key, with a reason: POST /v1/resolutions, recorded as an operator.resolution
 * event in the audit trail. A native modal dialog: focus moves in, Escape closes, focus returns.
 */
export function ActionDialog({
  target,
  onClose,
  onDone,
}: {
  target: ActionTarget | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [by, setBy] = useState(() => localStorage.getItem(OPERATOR_KEY) ?? '');
  const [resolution, setResolution] = useState<OperatorAction>('reset');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (target && !element.open) {
      setReason('');
      setError(null);
      setResolution(target.mode === 'acknowledge' ? 'acknowledged' : 'reset');
      element.showModal();
    }
    if (!target && element.open) element.close();
  }, [target]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      localStorage.setItem(OPERATOR_KEY, by.trim());
      const answer = await api<{ id: string }>('/v1/resolutions', {
        method: 'POST',
        body: {
          keyId: target.keyId,
          resolution: target.mode === 'acknowledge' ? 'acknowledged' : resolution,
          by: by.trim(),
          reason: reason.trim(),
        },
      });
      onDone(
        `${target.mode === 'acknowledge' ? 'Acknowledgement' : 'Resolution'} of ${target.label} recorded in the audit trail (event ${answer.id}).`,
      );
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const title = target?.mode === 'acknowledge' ? 'Acknowledge' : 'Resolve';
  return (
    <dialog ref={dialog} aria-labelledby="action-title" onClose={onClose} class="action-dialog">
      <form onSubmit={(event) => void submit(event)}>
        <h2 id="action-title">
          {title} {target?.label}
        </h2>
        <p class="hint">
          {target?.mode === 'acknowledge'
            ? 'Stops paging for this situation; the key stays blocked until it is resolved.'
            : 'Ends this failure episode (the pager incident resolves); what agents may do next depends on what you establish.'}
        </p>
        {target?.mode === 'resolve' && (
          <>
            <label for="resolution-kind">How it was resolved</label>
            <select
              id="resolution-kind"
              aria-describedby="resolution-help"
              value={resolution}
              onChange={(event) => setResolution((event.target as HTMLSelectElement).value as OperatorAction)}
            >
              {RESOLVE_CHOICES.map((choice) => (
                <option key={choice.kind} value={choice.kind}>
                  {choice.label}
                </option>
              ))}
            </select>
            <p class="hint" id="resolution-help" aria-live="polite">
              {RESOLVE_CHOICES.find((choice) => choice.kind === resolution)?.help}
            </p>
          </>
        )}
        <label for="action-by">Your name</label>
        <input
          id="action-by"
          required
          maxLength={256}
          value={by}
          onInput={(event) => setBy((event.target as HTMLInputElement).value)}
        />
        <label for="action-reason">Reason</label>
        <textarea
          id="action-reason"
          required
          rows={3}
          value={reason}
          onInput={(event) => setReason((event.target as HTMLTextAreaElement).value)}
        />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Recording…' : title}
          </button>
        </div>
      </form>
    </dialog>
  );
}

import { useState } from 'preact/hooks';
import { api, HttpError } from '../api.js';

/** Sign-in: the printed one-time link lands here signed in; otherwise an API key in a form (never in the URL). */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const expired = new URLSearchParams(location.search).get('signin') === 'expired';
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/dashboard/session', { method: 'POST', body: { apiKey: key.trim() } });
      setKey('');
      history.replaceState(null, '', location.pathname + location.hash);
      onSignedIn();
    } catch (caught) {
      setError(caught instanceof HttpError && caught.status === 401 ? 'That API key is not known.' : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>TokenCircuit Fleet</h1>
      {expired && (
        <p class="notice" role="alert">
          That sign-in link has expired or was already used. Run <code>npx tokencircuit dashboard --open</code> for a
          new one, or sign in with an API key.
        </p>
      )}
      <p>
        Run <code>npx tokencircuit dashboard --open</code> for a one-time sign-in link, or enter your tenant’s API key.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="apiKey"
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}

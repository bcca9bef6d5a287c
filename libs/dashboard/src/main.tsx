import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, useCsrfToken } from './api.js';
import { isUnauthenticated, useLive, useRoute } from './hooks.js';
import type { SessionInfo } from './types.js';
import { AuditView } from './views/audit-view.js';
import { FleetView } from './views/fleet-view.js';
import { InterventionView } from './views/intervention-view.js';
import { RunView } from './views/run-view.js';
import { SignIn } from './views/sign-in.js';
import { SpendView } from './views/spend-view.js';
import 'uplot/dist/uPlot.min.css';
import './styles.css';

type Auth = { state: 'checking' } | { state: 'signed-out' } | { state: 'signed-in'; session: SessionInfo };

function App() {
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });
  const check = () =>
    api<SessionInfo>('/v1/dashboard/session').then(
      (session) => {
        useCsrfToken(session.csrfToken);
        setAuth({ state: 'signed-in', session });
      },
      (error: unknown) => {
        if (!isUnauthenticated(error)) console.error(error);
        setAuth({ state: 'signed-out' });
      },
    );
  useEffect(() => {
    void check();
  }, []);
  const live = useLive(auth.state === 'signed-in');
  const route = useRoute();

  if (auth.state === 'checking') return <p class="page-status">Loading…</p>;
  if (auth.state === 'signed-out') return <SignIn onSignedIn={() => void check()} />;

  const signOut = async () => {
    await api('/dashboard/logout', { method: 'POST' }).catch(() => undefined);
    useCsrfToken(null);
    setAuth({ state: 'signed-out' });
  };
  const [section, id] = route;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/">
          TokenCircuit Fleet
        </a>
        <nav aria-label="Sections">
          <a href="#/" aria-current={section === undefined ? 'page' : undefined}>
            Fleet now
          </a>
          <a href="#/audit" aria-current={section === 'audit' ? 'page' : undefined}>
            Audit
          </a>
          <a href="#/spend" aria-current={section === 'spend' ? 'page' : undefined}>
            Spend
          </a>
        </nav>
        <span class={`live live-${live.status}`} role="status" aria-live="polite">
          {live.status === 'live' ? '● Live' : live.status === 'connecting' ? '○ Connecting…' : '○ Reconnecting…'}
        </span>
        <span class="tenant">
          Tenant <strong>{auth.session.tenant}</strong>
        </span>
        <button type="button" class="link-button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {section === 'interventions' && id ? (
          <InterventionView id={id} version={live.version} />
        ) : section === 'runs' && id ? (
          <RunView run={id} version={live.version} />
        ) : section === 'audit' ? (
          <AuditView />
        ) : section === 'spend' ? (
          <SpendView version={live.version} />
        ) : (
          <FleetView version={live.version} recent={live.recent} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);

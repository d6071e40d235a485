import { type ComponentChildren, Fragment, type JSX } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Session } from './api/account.js';
import { createApi } from './api/index.js';
import { AppContext, type AppState } from './app-state.js';
import { AccountsPage } from './pages/accounts/index.js';
import { AnalyticsPage } from './pages/analytics.js';
import { ApprovalsNavLink, ApprovalsPage } from './pages/approvals/index.js';
import { CalendarPage } from './pages/calendar.js';
import { calendarHref } from './pages/calendar-place.js';
import { ConfirmConnectPage } from './pages/confirm-connect.js';
import { EditorPage } from './pages/editor.js';
import { GUIDE_PATHS, GuidePage } from './pages/guide.js';
import { HomePage } from './pages/home/index.js';
import { ImportPage } from './pages/import/index.js';
import { ReviewPage } from './pages/review/index.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SettingsPage } from './pages/settings/index.js';
import { SignInPage } from './pages/sign-in.js';
import { navigate, onLinkClick, useLocation } from './router.js';

/**
 * The app shell: who is signed in, the navigation, and which page a path shows. A page of the
 * signed-in part sends a signed-out visitor to /sign-in (and back after signing in).
 */

/** The pages of the signed-in app, in navigation order. */
const PAGES: Array<{ path: string; label: string; page: () => JSX.Element }> = [
  { path: '/', label: 'Home', page: HomePage },
  { path: '/calendar', label: 'Calendar', page: CalendarPage },
  { path: '/import', label: 'Import', page: ImportPage },
  { path: '/accounts', label: 'Accounts', page: AccountsPage },
  { path: '/analytics', label: 'Analytics', page: AnalyticsPage },
  { path: '/settings', label: 'Settings', page: SettingsPage },
];

const PUBLIC_PATHS = new Set(['/sign-in', '/set-password', ...GUIDE_PATHS]);

export function App() {
  const { path } = useLocation();
  const [session, setSession] = useState<Session | null | 'loading'>('loading');
  const api = useMemo(
    () =>
      createApi(() => {
        setSession(null);
      }),
    [],
  );

  useEffect(() => {
    api.auth
      .session()
      .then((s) => {
        api.setCsrf(s.csrfToken);
        setSession(s);
      })
      .catch(() => setSession(null));
  }, [api]);

  const signedIn = (s: Session) => {
    api.setCsrf(s.csrfToken);
    setSession(s);
  };

  // A review link's page needs no sign-in: its token (the path's last part) is its credential.
  const reviewToken = path.startsWith('/review/') ? path.slice('/review/'.length) : null;

  // Signed out on a page of the app: to the sign-in page, and back here afterwards.
  useEffect(() => {
    if (session === null && !PUBLIC_PATHS.has(path) && reviewToken === null) {
      navigate(`/sign-in${path === '/' ? '' : `?next=${encodeURIComponent(path + location.search)}`}`, { replace: true });
    }
  }, [session, path, reviewToken]);

  if (reviewToken !== null) return <ReviewPage api={api} token={reviewToken} />;
  // The form shows at once (nothing moves when the session answer arrives); a signed-in visitor moves on.
  if (path === '/sign-in')
    return (
      <PublicFrame>
        <SignInPage api={api} session={session === 'loading' ? null : session} onSignedIn={signedIn} />
      </PublicFrame>
    );
  if (path === '/set-password') return <PublicFrame>{<SetPasswordPage api={api} onSignedIn={signedIn} />}</PublicFrame>;
  if (GUIDE_PATHS.includes(path))
    return (
      <PublicFrame wide>
        <GuidePage name={path.slice('/guide/'.length)} />
      </PublicFrame>
    );
  if (session === 'loading' || session === null) return <Shell />;

  // Not in the list: a thread's own page (/threads/:id) is the editor too; /connect/confirm ends a
  // connect an API key started; /approvals has its own link (a team's writers and editors only).
  const page =
    PAGES.find((p) => p.path === path) ??
    (path.startsWith('/threads/')
      ? { page: EditorPage }
      : path === '/connect/confirm'
        ? { page: ConfirmConnectPage }
        : path === '/approvals'
          ? { page: ApprovalsPage }
          : undefined);
  const state: AppState = { api, account: session.account, setAccount: (account) => setSession({ ...session, account }) };
  return (
    <AppContext.Provider value={state}>
      <Shell
        email={session.account.email}
        current={path}
        onSignOut={async () => {
          await api.auth.signOut().catch(() => undefined);
          api.setCsrf(null);
          setSession(null);
          navigate('/sign-in', { replace: true });
        }}
      >
        {page ? <page.page /> : <NotFound />}
      </Shell>
    </AppContext.Provider>
  );
}

/** The frame of every signed-in page; rendered empty while the session loads, so nothing moves. */
function Shell(props: { email?: string; current?: string; onSignOut?: () => void; children?: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: catches clicks on the links inside for in-app routing
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter key fires this click too
    <div class="shell" onClick={onLinkClick}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/">
          Skein
        </a>
        <nav aria-label="Main">
          {props.email &&
            PAGES.map((p) => (
              <Fragment key={p.path}>
                {/* The calendar link goes back to the week or month last looked at in this tab. */}
                <a
                  href={p.path !== '/calendar' ? p.path : props.current === p.path ? `${location.pathname}${location.search}` : calendarHref()}
                  aria-current={props.current === p.path ? 'page' : undefined}
                >
                  {p.label}
                </a>
                {/* Approvals (with its count) follows the calendar, for a team's writers and editors. */}
                {p.path === '/calendar' && <ApprovalsNavLink current={props.current ?? ''} />}
              </Fragment>
            ))}
        </nav>
        <div class="who">
          {props.email && (
            <>
              <span class="email" title={props.email}>
                {props.email}
              </span>
              <button type="button" class="link-button" onClick={props.onSignOut}>
                Sign out
              </button>
            </>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}

function PublicFrame({ children, wide = false }: { children: ComponentChildren; wide?: boolean }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: catches clicks on the links inside for in-app routing
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter key fires this click too
    <div class="public" onClick={onLinkClick}>
      <main id="main" class={wide ? 'card' : 'card narrow'}>
        <p class="brand">Skein</p>
        {children}
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <a href="/">Back to the start</a>
      </p>
    </section>
  );
}

import { useEffect, useId, useState } from 'preact/hooks';
import type { Provider } from '../../api/providers.js';
import type { ReviewLink } from '../../api/review.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, useSubmit } from '../../form.js';
import { providerLabel } from '../../providers.js';
import { formatInZone } from '../../time.js';

/**
 * Settings → Review links (an admin's, src/http/access.ts): pages without sign-in that show a
 * client the team's threads of a range, with approve, reject and comment when allowed. A new
 * link's address is shown once (only its hash is kept), to copy; any link can be revoked at once.
 */

const DAY = 86_400_000;

/** `YYYY-MM-DD` of a Date, in this browser's zone. */
function dateInput(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

export function ReviewLinkSettings({ teamId }: { teamId: string }) {
  const { api, account } = useApp();
  const [links, setLinks] = useState<ReviewLink[] | null>(null);
  const [providers, setProviders] = useState<Provider[]>([]);
  const [created, setCreated] = useState<string | null>(null);
  const action = useSubmit();
  useEffect(() => {
    setLinks(null);
    api.reviewLinks
      .list(teamId)
      .then(setLinks)
      .catch(() => setLinks([]));
    api.providers
      .list(teamId)
      .then(setProviders)
      .catch(() => setProviders([]));
  }, [api, teamId]);
  const when = (iso: string) => formatInZone(iso, account.timezone, { dateStyle: 'medium' });
  const revoke = (link: ReviewLink) =>
    void action.run(async () => {
      await api.reviewLinks.revoke(link.id);
      setLinks((list) => (list ?? []).filter((l) => l.id !== link.id));
    });
  return (
    <section class="card" aria-labelledby="review-links-heading">
      <h2 id="review-links-heading">Review links</h2>
      <p class="hint">A link lets a client see the threads of a range without an account, and approve, reject or comment on them if you allow it.</p>
      {created && <NewLink url={created} onDone={() => setCreated(null)} />}
      {links === null && <p class="hint">Loading…</p>}
      {links?.length === 0 && <p class="hint">No review links yet.</p>}
      {links && links.length > 0 && (
        <ul class="review-links">
          {links.map((l) => (
            <li key={l.id} data-review-link={l.id}>
              <span>
                {when(l.from)} – {when(l.to)} · {l.providerIds ? `${l.providerIds.length} account(s)` : 'all accounts'} ·{' '}
                {l.canApprove ? 'may approve' : 'look only'} · {l.expired ? 'expired' : `until ${when(l.expiresAt)}`}
              </span>{' '}
              <button type="button" class="danger" onClick={() => revoke(l)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormMessage message={formMessage(action.error, [])} />
      <AddReviewLinkForm
        teamId={teamId}
        providers={providers}
        onCreated={({ url, ...link }) => {
          setCreated(url);
          setLinks((list) => [link, ...(list ?? [])]);
        }}
      />
    </section>
  );
}

function NewLink(props: { url: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.url);
      setCopied(true);
    } catch {
      (document.getElementById(inputId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <section class="new-key" aria-label="New review link">
      <p>Copy the link now and send it to your client: it is shown only once.</p>
      <div class="copy-row">
        <input id={inputId} aria-label="Review link" readOnly value={props.url} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" class="link-button" onClick={props.onDone}>
        Done, hide it
      </button>
    </section>
  );
}

type Created = ReviewLink & { url: string };

function AddReviewLinkForm(props: { teamId: string; providers: Provider[]; onCreated: (link: Created) => void }) {
  const { api } = useApp();
  const today = new Date();
  const [from, setFrom] = useState(dateInput(today));
  const [to, setTo] = useState(dateInput(new Date(today.getTime() + 7 * DAY)));
  const [days, setDays] = useState(7);
  const [chosen, setChosen] = useState<string[]>([]);
  const [canApprove, setCanApprove] = useState(true);
  const { busy, error, run } = useSubmit();
  const id = useId();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const link = await api.reviewLinks.create({
        teamId: props.teamId,
        from: new Date(`${from}T00:00`).toISOString(),
        // The last day chosen is included: the range ends at the next midnight.
        to: new Date(new Date(`${to}T00:00`).getTime() + DAY).toISOString(),
        providerIds: chosen.length ? chosen : null,
        canApprove,
        expiresAt: new Date(Date.now() + days * DAY).toISOString(),
      });
      props.onCreated(link as Created);
    });
  };
  const fault = (path: string) => error?.at(path);
  return (
    <form onSubmit={submit} noValidate aria-label="New review link">
      <div class={`field${fault('from') ? ' field-invalid' : ''}`}>
        <label for={`${id}-from`}>First day</label>
        <input id={`${id}-from`} type="date" value={from} onInput={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <div class={`field${fault('to') ? ' field-invalid' : ''}`}>
        <label for={`${id}-to`}>Last day</label>
        <input id={`${id}-to`} type="date" value={to} onInput={(e) => setTo((e.currentTarget as HTMLInputElement).value)} />
        {fault('to') && <p class="field-error">The last day must not be before the first.</p>}
      </div>
      {props.providers.length > 1 && (
        <fieldset class="field">
          <legend>Accounts (none chosen: all)</legend>
          {props.providers.map((p) => (
            <label key={p.id} class="field checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(p.id)}
                onChange={(e) => {
                  const on = (e.currentTarget as HTMLInputElement).checked;
                  setChosen((list) => (on ? [...list, p.id] : list.filter((x) => x !== p.id)));
                }}
              />
              {providerLabel(p)}
            </label>
          ))}
        </fieldset>
      )}
      <div class="field">
        <label for={`${id}-days`}>Works for</label>
        <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}>
          {[1, 3, 7, 14, 30].map((d) => (
            <option key={d} value={d}>
              {d === 1 ? '1 day' : `${d} days`}
            </option>
          ))}
        </select>
      </div>
      <label class="field checkbox">
        <input type="checkbox" checked={canApprove} onChange={(e) => setCanApprove((e.currentTarget as HTMLInputElement).checked)} />
        The client may approve, reject and comment
      </label>
      <FormMessage message={formMessage(error, ['to'])} />
      <Submit busy={busy}>Create review link</Submit>
    </form>
  );
}

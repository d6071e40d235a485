import { useEffect, useId, useState } from 'preact/hooks';
import type { Delivery, NewWebhookAnswer, Webhook, WebhookEvent } from '../../api/webhooks.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';
import { formatInZone } from '../../time.js';
import './webhooks.css';

/**
 * Settings → Webhooks: the active workspace's endpoints. Add one (its signing secret is shown
 * once), list, delete, send a test ping, and see the latest delivery attempts.
 */

const EVENTS: Array<{ type: WebhookEvent; what: string }> = [
  { type: 'post.published', what: 'a post of a thread is published' },
  { type: 'thread.published', what: 'a whole thread is published' },
  { type: 'thread.failed', what: 'publishing a thread stopped on an error' },
  { type: 'follow_up.published', what: 'a follow-up reply is published' },
  { type: 'follow_up.failed', what: 'a follow-up reply failed' },
  { type: 'provider.expired', what: 'an account needs reconnecting' },
  { type: 'thread.approval_requested', what: 'a writer’s thread waits for approval' },
  { type: 'thread.approved', what: 'a thread was approved' },
  { type: 'thread.rejected', what: 'a thread was rejected' },
  { type: 'comment.created', what: 'a comment was written on a thread' },
];

function formatWhen(iso: string, timeZone: string): string {
  return formatInZone(iso, timeZone, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function WebhookSettings() {
  const { api, account } = useApp();
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const team = account.activeTeamId ?? 'personal';

  const load = () =>
    api.webhooks
      .list(team)
      .then(setHooks)
      .catch(() => setHooks([]));
  useEffect(() => {
    setHooks(null);
    void load();
  }, [api, team]);

  return (
    <section class="card" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="hint">
        Skein POSTs a signed JSON event to each address when something happens in this workspace (header Skein-Signature: HMAC-SHA256 with the secret).
      </p>
      {created && <NewSecret url={created.url} secret={created.secret} onDone={() => setCreated(null)} />}
      {hooks === null && <p class="hint">Loading…</p>}
      {hooks?.length === 0 && <p class="hint">No webhooks yet.</p>}
      {hooks && hooks.length > 0 && (
        <ul class="webhooks">
          {hooks.map((h) => (
            <WebhookItem key={h.id} hook={h} onDeleted={() => setHooks((list) => (list ?? []).filter((other) => other.id !== h.id))} />
          ))}
        </ul>
      )}
      <AddWebhookForm
        team={team}
        onCreated={({ secret, ...hook }) => {
          // One request: the answer is the new endpoint; its secret is shown once, never listed.
          setCreated({ url: hook.url, secret });
          setHooks((list) => [...(list ?? []), { ...hook, teamId: team === 'personal' ? null : team }]);
        }}
      />
    </section>
  );
}

function NewSecret(props: { url: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const inputId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied(true);
    } catch {
      (document.getElementById(inputId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <section class="new-key" aria-label="New webhook secret">
      <p>
        Signing secret for <strong class="url">{props.url}</strong>: copy it now. It is shown only once.
      </p>
      <div class="copy-row">
        <input id={inputId} aria-label="Webhook signing secret" readOnly value={props.secret} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
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

function WebhookItem(props: { hook: Webhook; onDeleted: () => void }) {
  const { api, account } = useApp();
  const h = props.hook;
  const [deliveries, setDeliveries] = useState<Delivery[] | null>(null);
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const action = useSubmit();
  const listId = useId();

  const loadDeliveries = async () => {
    setDeliveries(await api.webhooks.deliveries(h.id));
  };
  const toggleDeliveries = () => {
    const next = !open;
    setOpen(next);
    if (next) void action.run(loadDeliveries);
  };
  const sendTest = () =>
    void action.run(async () => {
      const r = await api.webhooks.test(h.id);
      setSent(`Test ping queued (event ${r.eventId}); it is sent within moments.`);
      if (open) await loadDeliveries();
    });
  const remove = () => {
    if (!window.confirm(`Delete the webhook to ${h.url}? Its pending deliveries are dropped.`)) return;
    void action.run(async () => {
      await api.webhooks.delete(h.id);
      props.onDeleted();
    });
  };

  return (
    <li class="webhook" data-webhook-id={h.id}>
      <p class="url">
        <code>{h.url}</code>
      </p>
      <p class="hint">
        {h.events.join(', ')} · added {formatWhen(h.createdAt, account.timezone)}
      </p>
      <div class="actions wrap">
        <button type="button" aria-expanded={open} aria-controls={listId} onClick={toggleDeliveries}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button type="button" onClick={sendTest} disabled={action.busy}>
          Send test
        </button>
        <button type="button" class="danger" onClick={remove} disabled={action.busy} aria-label={`Delete webhook ${h.url}`}>
          Delete
        </button>
      </div>
      <p class="status" role="status">
        {sent ?? ''}
      </p>
      <FormMessage message={action.error?.detail ?? null} />
      <div id={listId} hidden={!open}>
        {open && <DeliveryList deliveries={deliveries} onRefresh={() => void action.run(loadDeliveries)} />}
      </div>
    </li>
  );
}

function DeliveryList(props: { deliveries: Delivery[] | null; onRefresh: () => void }) {
  const { account } = useApp();
  return (
    <div class="deliveries">
      <div class="actions">
        <h3>Latest deliveries</h3>
        <button type="button" class="link-button" onClick={props.onRefresh}>
          Refresh
        </button>
      </div>
      {props.deliveries === null ? (
        <p class="hint">Loading…</p>
      ) : props.deliveries.length === 0 ? (
        <p class="hint">Nothing sent yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="keys">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {props.deliveries.map((d) => (
                <tr key={`${d.eventId}-${d.attempt}`}>
                  <td data-label="When">{formatWhen(d.at, account.timezone)}</td>
                  <td data-label="Event">{d.type}</td>
                  <td data-label="Attempt">{d.attempt}</td>
                  <td data-label="Result" class={d.status === 'DELIVERED' ? 'ok' : 'failed'}>
                    {d.status === 'DELIVERED' ? 'Delivered' : 'Failed'}
                    {d.responseStatus !== null && ` (HTTP ${d.responseStatus})`}
                    {d.error && `: ${d.error}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function AddWebhookForm(props: { team: string; onCreated: (hook: NewWebhookAnswer) => void }) {
  const { api } = useApp();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(EVENTS.map((e) => e.type));
  const { busy, error, run } = useSubmit();
  const eventsError = error?.errors
    .filter((e) => e.path === 'events' || e.path.startsWith('events.'))
    .map((e) => e.message)
    .join('; ');
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const hook = await api.webhooks.create({ url: url.trim(), events, teamId: props.team });
      setUrl('');
      props.onCreated(hook);
    });
  };
  const toggle = (type: WebhookEvent, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));
  const placed = ['url', 'events', ...events.map((_, i) => `events.${i}`)];
  return (
    <form onSubmit={submit} noValidate class="add-webhook">
      <h3>Add a webhook</h3>
      <TextField
        label="Address (URL)"
        name="url"
        value={url}
        onValue={setUrl}
        error={error?.at('url')}
        placeholder="https://example.com/skein-events"
        spellcheck={false}
      />
      <fieldset class={`events${eventsError ? ' field-invalid' : ''}`}>
        <legend>Events</legend>
        {EVENTS.map((e) => (
          <EventCheckbox key={e.type} type={e.type} what={e.what} checked={events.includes(e.type)} onChange={(on) => toggle(e.type, on)} />
        ))}
        {eventsError && (
          <p class="field-error" data-field-error="events">
            {eventsError}
          </p>
        )}
      </fieldset>
      <FormMessage message={formMessage(error, placed)} />
      <Submit busy={busy}>Add webhook</Submit>
    </form>
  );
}

function EventCheckbox(props: { type: string; what: string; checked: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input
        id={id}
        type="checkbox"
        name="events"
        value={props.type}
        checked={props.checked}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>
        <code>{props.type}</code> <span class="hint">{props.what}</span>
      </label>
    </div>
  );
}

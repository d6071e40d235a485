import { useEffect, useState } from 'preact/hooks';
import type { Network, Provider } from '../api/providers.js';
import type { FollowUp } from '../api/threads.js';
import { useApp } from '../app-state.js';
import { FormMessage, formMessage, useSubmit } from '../form.js';
import { networkHref } from '../network-links.js';
import { countText, serverText } from '../text-rules.js';
import { formatInZone } from '../time.js';
import { Field } from './field.js';
import { faultAt } from './post-editor.js';

/**
 * The follow-up replies of a saved thread: listed, added, retried when FAILED, deleted. `account`:
 * the thread's account, whose own limits (a Mastodon server's, read from it) the text is counted
 * against as the thread's posts are; null for the network's own.
 */
export function FollowUps({ threadId, network, account, zone }: { threadId: string; network: Network; account: Provider | null; zone: string }) {
  const { api } = useApp();
  const [items, setItems] = useState<FollowUp[]>([]);
  const [text, setText] = useState('');
  const [delay, setDelay] = useState('60');
  const { busy, error, run } = useSubmit();

  const reload = () =>
    api.followUps
      .list(threadId)
      .then(setItems)
      .catch(() => undefined);
  useEffect(() => {
    void reload();
  }, [api, threadId]);

  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await api.followUps.add(threadId, { text, delayMinutes: Number(delay) });
      setText('');
      await reload();
    });
  };
  const counter = countText(network, text, serverText(account));

  return (
    <section class="card" aria-labelledby="follow-ups-heading">
      <h2 id="follow-ups-heading">Follow-up replies</h2>
      {items.length === 0 ? (
        <p class="hint">None yet. A follow-up is a reply to the last post, a while after it is published.</p>
      ) : (
        <ul class="follow-ups">
          {items.map((f) => (
            <li key={f.id}>
              <p>{f.text}</p>
              <p class="hint">
                {f.delayMinutes} min after · {f.status}
                {f.dueAt ? ` · due ${formatInZone(f.dueAt, zone)}` : ''}
                {networkHref(f.permaLink) && (
                  <>
                    {' · '}
                    <a href={networkHref(f.permaLink)!} target="_blank" rel="noopener noreferrer">
                      view
                    </a>
                  </>
                )}
                {f.error ? ` · ${f.error.message}` : ''}
              </p>
              <div class="actions wrap">
                {f.status === 'FAILED' && (
                  <button
                    type="button"
                    class="primary"
                    aria-label={`Retry follow-up ${f.text.slice(0, 30)}`}
                    onClick={() =>
                      void run(async () => {
                        await api.followUps.retry(threadId, f.id);
                        await reload();
                      })
                    }
                  >
                    Retry
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Delete follow-up ${f.text.slice(0, 30)}`}
                  onClick={() =>
                    void run(async () => {
                      await api.followUps.delete(threadId, f.id);
                      await reload();
                    })
                  }
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} noValidate>
        <Field label="Follow-up text" name="text" error={faultAt(error, 'text')}>
          {(control) => <textarea {...control} rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} />}
        </Field>
        <p class={`counter${counter.over ? ' over' : ''}`} aria-live="polite" data-follow-up-counter>
          {counter.label}
          {counter.over ? ' — too long' : ''}
        </p>
        <Field label="Minutes after the last post" name="delayMinutes" error={faultAt(error, 'delayMinutes')} hint="5 to 10,080 (a week).">
          {(control) => <input {...control} inputMode="numeric" value={delay} onInput={(e) => setDelay(e.currentTarget.value)} />}
        </Field>
        <FormMessage message={formMessage(error, ['text', 'delayMinutes'])} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Add follow-up
          </button>
        </div>
      </form>
    </section>
  );
}

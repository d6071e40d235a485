import { useEffect, useState } from 'preact/hooks';
import type { ApiKey } from '../../api/account.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';
import { formatInZone } from '../../time.js';

function formatTime(iso: string | null, timeZone: string): string {
  return iso ? formatInZone(iso, timeZone) : 'never';
}

/** API keys: created (the key shown once), listed, revoked. */
export function ApiKeys() {
  const { api, account } = useApp();
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const { busy, error, run } = useSubmit();
  const revoke = useSubmit();

  const load = () =>
    api.keys
      .list()
      .then(setKeys)
      .catch(() => setKeys([]));
  useEffect(() => {
    void load();
  }, [api]);

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      // One request: the answer is the new key, added to the list as it is (never used yet).
      const { key, ...created } = await api.keys.create(name);
      setCreated({ name: created.name, key });
      setCopied(false);
      setName('');
      setKeys((list) => [...(list ?? []), { ...created, lastUsedAt: null }]);
    });
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // No clipboard access (an insecure origin): select the text so Ctrl+C copies it.
      const field = document.getElementById('new-key-value') as HTMLInputElement | null;
      field?.select();
    }
  };

  return (
    <section class="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p class="hint">For scripts and integrations: send one as Authorization: Bearer &lt;key&gt;.</p>
      {created && (
        <section class="new-key" aria-label="New API key">
          <p>
            <strong>{created.name}</strong>: copy this key now. It is shown only once.
          </p>
          <div class="copy-row">
            <input
              id="new-key-value"
              aria-label="New API key value"
              readOnly
              value={created.key}
              onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
            />
            <button type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          <button type="button" class="link-button" onClick={() => setCreated(null)}>
            Done, hide it
          </button>
        </section>
      )}
      <div class="table-wrap">
        <table class="keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys === null && (
              <tr>
                <td colSpan={5}>Loading…</td>
              </tr>
            )}
            {keys?.length === 0 && (
              <tr>
                <td colSpan={5}>No keys yet.</td>
              </tr>
            )}
            {keys?.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td data-label="Name">{k.name}</td>
                <td data-label="Key">
                  <code>…{k.last4}</code>
                </td>
                <td data-label="Created">{formatTime(k.createdAt, account.timezone)}</td>
                <td data-label="Last used">{formatTime(k.lastUsedAt, account.timezone)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke key ${k.name} ending ${k.last4}`}
                    disabled={revoke.busy}
                    onClick={() => {
                      if (!window.confirm(`Revoke "${k.name}" (…${k.last4})? Scripts using it stop working at once.`)) return;
                      void revoke.run(async () => {
                        await api.keys.revoke(k.id);
                        setKeys((list) => (list ?? []).filter((other) => other.id !== k.id));
                      });
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormMessage message={revoke.error?.detail ?? null} />
      <form onSubmit={submit} noValidate class="inline-form">
        <TextField label="New key name" name="name" value={name} onValue={setName} error={error?.at('name')} placeholder="for example zapier" />
        <FormMessage message={formMessage(error, ['name'])} />
        <Submit busy={busy}>Create key</Submit>
      </form>
    </section>
  );
}

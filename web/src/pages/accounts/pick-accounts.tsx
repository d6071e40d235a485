import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.js';
import type { ConnectPick } from '../../api/providers.js';
import { useApp } from '../../app-state.js';
import { FormMessage, formMessage, Submit, useSubmit } from '../../form.js';
import { NETWORK_NAMES } from '../../providers.js';

/**
 * After a sign-in that offered several accounts (LinkedIn: the member and each page it
 * administers), the accounts page asks which to add: one checkbox each, none ticked, so only what
 * the user chose is connected (`POST /api/v1/providers/connect/picks/{id}`). The pick lasts 15
 * minutes and is used once; Cancel forgets it.
 */
export function PickAccounts(props: { id: string; onDone: (text: string | null) => void }) {
  const { api } = useApp();
  const [pick, setPick] = useState<ConnectPick | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const submit = useSubmit();

  useEffect(() => {
    api.providers
      .pick(props.id)
      .then(setPick)
      .catch((err) =>
        setLoadError(err instanceof ApiError && err.status === 404 ? 'This choice has expired or was made already: connect again.' : String(err)),
      );
  }, [props.id]);

  if (loadError) return <FormMessage message={`The accounts to choose from could not be loaded: ${loadError}`} />;
  if (!pick) return <p class="hint">Loading the accounts to choose from…</p>;
  const name = NETWORK_NAMES[pick.network];
  const toggle = (providerUserId: string, on: boolean) => setChosen((now) => (on ? [...now, providerUserId] : now.filter((c) => c !== providerUserId)));
  const add = (event: Event) => {
    event.preventDefault();
    void submit.run(async () => {
      if (chosen.length === 0) throw new ApiError(400, 'VALIDATION_FAILED', 'Choose at least one account to add, or Cancel.');
      const added = await api.providers.completePick(props.id, chosen);
      props.onDone(`${name}: ${added.map((p) => p.username).join(', ')} connected.`);
    });
  };

  return (
    <section class="card" aria-labelledby="pick-heading">
      <h2 id="pick-heading">Choose the {name} accounts to add</h2>
      <form onSubmit={add} noValidate>
        <fieldset>
          <legend>Your {name} sign-in may post as these. Each one you tick becomes its own account here.</legend>
          {pick.accounts.map((offered) => (
            <label key={offered.providerUserId} class="check">
              <input
                type="checkbox"
                checked={chosen.includes(offered.providerUserId)}
                onChange={(e) => toggle(offered.providerUserId, (e.target as HTMLInputElement).checked)}
              />{' '}
              {offered.username}
            </label>
          ))}
        </fieldset>
        <FormMessage message={formMessage(submit.error, [])} />
        <div class="actions">
          <Submit busy={submit.busy}>Add the chosen accounts</Submit>
          <button type="button" onClick={() => props.onDone(null)}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

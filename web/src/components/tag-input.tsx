import { useId, useState } from 'preact/hooks';
import type { Tag } from '../api/threads.js';

/** Tag names as removable chips; the input completes from the workspace's tags (a datalist). */
export function TagInput(props: { tags: string[]; known: Tag[]; onChange: (tags: string[]) => void; error?: string | undefined }) {
  const [draft, setDraft] = useState('');
  const id = useId();
  const add = () => {
    const name = draft.trim();
    if (name && !props.tags.some((t) => t.toLowerCase() === name.toLowerCase())) props.onChange([...props.tags, name]);
    setDraft('');
  };
  const colorOf = (name: string) => props.known.find((t) => t.name.toLowerCase() === name.toLowerCase())?.color;
  return (
    <div class={`field${props.error ? ' field-invalid' : ''}`}>
      <label for={id}>Tags</label>
      <ul class="chips" aria-label="Tags of this thread">
        {props.tags.map((name) => (
          <li key={name} class="chip" style={colorOf(name) ? { borderColor: colorOf(name) } : undefined}>
            <span class="swatch" style={{ background: colorOf(name) ?? 'var(--muted)' }} />
            {name}
            <button type="button" class="chip-remove" aria-label={`Remove tag ${name}`} onClick={() => props.onChange(props.tags.filter((t) => t !== name))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <div class="inline">
        <input
          id={id}
          list={`${id}-list`}
          value={draft}
          autoComplete="off"
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" onClick={add}>
          Add tag
        </button>
      </div>
      <datalist id={`${id}-list`}>
        {props.known.map((t) => (
          <option key={t.id} value={t.name} />
        ))}
      </datalist>
      {props.error && (
        <p class="field-error" data-field-error="tags">
          {props.error}
        </p>
      )}
    </div>
  );
}

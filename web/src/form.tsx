import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from './api/client.js';

/**
 * Form plumbing: a submit runs once at a time, and an API error is shown where it belongs:
 * each `errors[].path` next to its field, anything else above the submit button.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'CLIENT', String(err)));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** Faults that name no field shown on the form (or no field at all) go to the form's message. */
export function formMessage(error: ApiError | null, fields: string[]): string | null {
  if (!error) return null;
  const unplaced = error.errors.filter((e) => !fields.includes(e.path));
  if (error.errors.length > 0 && unplaced.length === 0) return null;
  if (unplaced.length > 0) return unplaced.map((e) => e.message).join('; ');
  return error.detail;
}

/** The input attributes the app uses (Preact's own type is a union per input type). */
interface InputProps {
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  required?: boolean;
  minLength?: number;
  placeholder?: string;
  list?: string;
  inputMode?: 'text' | 'numeric';
  disabled?: boolean;
  spellcheck?: boolean;
}

export function TextField(
  props: InputProps & { label: string; name: string; value: string; onValue: (value: string) => void; error?: string | undefined; hint?: ComponentChildren },
) {
  const { label, name, value, onValue, error, hint, ...rest } = props;
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      <input
        // Preact types <input> as a union per `type`; these attributes suit every type used here.
        {...(rest as Record<string, unknown>)}
        id={id}
        name={name}
        value={value}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`} data-field-error={name}>
          {error}
        </p>
      )}
    </div>
  );
}

export function FormMessage({ message }: { message: string | null }) {
  return (
    <p class="form-message" role="alert" hidden={!message}>
      {message}
    </p>
  );
}

export function Submit({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <button type="submit" class="primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
      {children}
    </button>
  );
}

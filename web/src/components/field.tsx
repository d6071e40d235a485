import type { ComponentChildren, JSX } from 'preact';
import { useId } from 'preact/hooks';

/**
 * A labelled control of any kind (textarea, select, datetime-local…) with its hint and its
 * error from the API; `name` is the API path the error names (`data-field-error`).
 */
export function Field(props: {
  label: ComponentChildren;
  name: string;
  error?: string | undefined;
  hint?: ComponentChildren;
  class?: string;
  children: (control: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => JSX.Element;
}) {
  const id = useId();
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${props.error ? ' field-invalid' : ''}${props.class ? ` ${props.class}` : ''}`}>
      <label for={id}>{props.label}</label>
      {props.children({ id, ...(props.error ? { 'aria-invalid': 'true' as const } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={`${id}-error`} data-field-error={props.name}>
          {props.error}
        </p>
      )}
    </div>
  );
}

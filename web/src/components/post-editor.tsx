import { useRef } from 'preact/hooks';
import type { ApiError } from '../api/client.js';
import type { Network } from '../api/providers.js';
import type { SpoilerRange } from '../api/threads.js';
import { countText } from '../text-rules.js';
import { Field } from './field.js';

/** One post of a thread being written (`id` once saved; `key` keeps the textarea across reorders). */
export interface PostDraft {
  key: string;
  id?: string;
  text: string;
  topic: string;
  media: Array<{ url: string; altText: string }>;
  spoilerRanges: SpoilerRange[];
}

let nextKey = 0;
export function newPostDraft(): PostDraft {
  nextKey++;
  return { key: `new-${nextKey}`, text: '', topic: '', media: [], spoilerRanges: [] };
}

/** The API's message for `path`, or for anything under it (`posts.0.spoilerRanges.1.offset`). */
export function faultAt(error: ApiError | null, path: string): string | undefined {
  const faults = error?.errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`)) ?? [];
  return faults.length ? faults.map((f) => f.message).join('; ') : undefined;
}

export function PostEditor(props: {
  post: PostDraft;
  index: number;
  count: number;
  network: Network;
  error: ApiError | null;
  onChange: (post: PostDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { post, index, network } = props;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const counter = countText(network, post.text);
  const path = `posts.${index}`;
  const update = (patch: Partial<PostDraft>) => props.onChange({ ...post, ...patch });

  const markSpoiler = () => {
    const el = textarea.current;
    if (!el || el.selectionEnd <= el.selectionStart) return;
    const range = { offset: el.selectionStart, length: el.selectionEnd - el.selectionStart };
    const overlaps = post.spoilerRanges.some((r) => range.offset < r.offset + r.length && r.offset < range.offset + range.length);
    if (overlaps) return;
    update({ spoilerRanges: [...post.spoilerRanges, range].sort((a, b) => a.offset - b.offset) });
  };

  return (
    <li class="card post-editor" data-post={index}>
      <div class="post-head">
        <h3>Post {index + 1}</h3>
        <div class="post-tools">
          <button type="button" aria-label={`Move post ${index + 1} up`} disabled={index === 0} onClick={() => props.onMove(-1)}>
            ↑
          </button>
          <button type="button" aria-label={`Move post ${index + 1} down`} disabled={index === props.count - 1} onClick={() => props.onMove(1)}>
            ↓
          </button>
          <button type="button" aria-label={`Remove post ${index + 1}`} disabled={props.count === 1} onClick={props.onRemove}>
            Remove
          </button>
        </div>
      </div>
      <Field label={`Post ${index + 1} text`} name={`${path}.text`} error={faultAt(props.error, `${path}.text`)}>
        {(control) => (
          <textarea
            {...control}
            ref={textarea}
            rows={4}
            value={post.text}
            onInput={(e) => {
              const text = e.currentTarget.value;
              update({ text, spoilerRanges: post.spoilerRanges.filter((r) => r.offset + r.length <= text.length) });
            }}
          />
        )}
      </Field>
      <p class={`counter${counter.over ? ' over' : ''}`} aria-live="polite" data-counter={index}>
        {counter.label}
        {counter.over ? ' — too long' : ''}
      </p>
      {network === 'THREADS' && (
        <div class="spoilers">
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={markSpoiler}>
            Mark selection as spoiler
          </button>
          {post.spoilerRanges.length > 0 && (
            <ul class="chips" aria-label={`Spoilers of post ${index + 1}`}>
              {post.spoilerRanges.map((r) => {
                const words = post.text.slice(r.offset, r.offset + r.length);
                return (
                  <li key={`${r.offset}-${r.length}`} class="chip spoiler-chip">
                    <mark>{words}</mark>
                    <button
                      type="button"
                      class="chip-remove"
                      aria-label={`Remove spoiler “${words}”`}
                      onClick={() => update({ spoilerRanges: post.spoilerRanges.filter((x) => x !== r) })}
                    >
                      ×
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {faultAt(props.error, `${path}.spoilerRanges`) && (
            <p class="field-error" data-field-error={`${path}.spoilerRanges`}>
              {faultAt(props.error, `${path}.spoilerRanges`)}
            </p>
          )}
        </div>
      )}
      {network === 'THREADS' && (
        <Field label={`Post ${index + 1} topic`} name={`${path}.topic`} error={faultAt(props.error, `${path}.topic`)} hint="Optional; no “.” or “&”.">
          {(control) => <input {...control} value={post.topic} onInput={(e) => update({ topic: e.currentTarget.value })} />}
        </Field>
      )}
      <fieldset class="media">
        <legend>Images of post {index + 1}</legend>
        {post.media.map((m, j) => {
          const setMedia = (patch: Partial<PostDraft['media'][number]>) => update({ media: post.media.map((x, k) => (k === j ? { ...x, ...patch } : x)) });
          return (
            <div class="media-row" key={j}>
              <Field label={`Image ${j + 1} URL`} name={`${path}.media.${j}.url`} error={faultAt(props.error, `${path}.media.${j}.url`)}>
                {(control) => <input {...control} type="url" inputMode="url" value={m.url} onInput={(e) => setMedia({ url: e.currentTarget.value })} />}
              </Field>
              <Field label={`Image ${j + 1} alt text`} name={`${path}.media.${j}.altText`} error={faultAt(props.error, `${path}.media.${j}.altText`)}>
                {(control) => <input {...control} value={m.altText} onInput={(e) => setMedia({ altText: e.currentTarget.value })} />}
              </Field>
              <button
                type="button"
                aria-label={`Remove image ${j + 1} of post ${index + 1}`}
                onClick={() => update({ media: post.media.filter((_, k) => k !== j) })}
              >
                Remove image
              </button>
            </div>
          );
        })}
        <button type="button" onClick={() => update({ media: [...post.media, { url: '', altText: '' }] })}>
          Add image
        </button>
      </fieldset>
    </li>
  );
}

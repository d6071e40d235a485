import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import type { Network, Provider } from '../api/providers.js';
import type { SpoilerRange } from '../api/threads.js';
import { useApp } from '../app-state.js';
import { fetchesMediaUrls, unreachableHost } from '../media-hosts.js';
import { countText, networkOptions, serverText } from '../text-rules.js';
import { Field } from './field.js';

/**
 * One image or video of a post: a file uploaded here (chosen, dropped or pasted; its `url` is the
 * upload's once it is stored) or a URL typed for media hosted elsewhere. `key` keeps an item's
 * row (and its upload) across reorders.
 */
export interface MediaDraft {
  key: string;
  source: 'upload' | 'link';
  url: string;
  altText: string;
  type: 'IMAGE' | 'VIDEO';
  /** The file's name, for an upload. */
  name?: string;
  /** While the file is being sent: the share of its bytes sent, 0 to 1. */
  progress?: number;
  /** Why the upload failed (the API's message). */
  error?: string;
}

/** One post of a thread being written (`id` once saved; `key` keeps the textarea across reorders). */
export interface PostDraft {
  key: string;
  id?: string;
  text: string;
  topic: string;
  media: MediaDraft[];
  spoilerRanges: SpoilerRange[];
}

let nextKey = 0;
function newKey(): string {
  nextKey++;
  return `new-${nextKey}`;
}

export function newPostDraft(): PostDraft {
  return { key: newKey(), text: '', topic: '', media: [], spoilerRanges: [] };
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
/** Where an upload is served: `<PUBLIC_URL>/media/<22-character id>.<ext>`. */
const UPLOAD_URL = /\/media\/[A-Za-z0-9_-]{22}\.[a-z0-9]+$/;
/** What the API accepts (it reads the kind from the bytes; this only narrows the file chooser). */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,video/mp4,video/quicktime';

/** A saved post's media as editor items. */
export function mediaDrafts(media: Array<{ url: string; altText: string | null; type: string }>): MediaDraft[] {
  return media.map((m) => ({
    key: newKey(),
    source: UPLOAD_URL.test(m.url) ? 'upload' : 'link',
    url: m.url,
    altText: m.altText ?? '',
    type: m.type === 'VIDEO' || VIDEO_URL.test(m.url) ? 'VIDEO' : 'IMAGE',
  }));
}

/** An item the post is saved with: a URL, and no upload under way or failed. */
function sendable(m: MediaDraft): boolean {
  return m.url.trim() !== '' && m.progress === undefined && m.error === undefined;
}

/** The `media` a post is saved with, in order; the API's faults name these indexes. */
export function mediaBody(post: PostDraft): Array<{ url: string; altText?: string }> {
  return post.media.filter(sendable).map((m) => ({ url: m.url.trim(), ...(m.altText.trim() ? { altText: m.altText.trim() } : {}) }));
}

/** Whether a file of any post is still being sent. */
export function uploading(posts: PostDraft[]): boolean {
  return posts.some((p) => p.media.some((m) => m.progress !== undefined));
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
  /** The account whose own limits the text and media are counted against (a Mastodon server's), or null for the network's. */
  account?: Provider | null;
  /** The workspace the thread's account belongs to (a team id or "personal"): its uploads go there. */
  teamId: string | undefined;
  error: ApiError | null;
  /** Applied to the post as it is when the change lands (an upload ends after other edits). */
  onChange: (update: (post: PostDraft) => PostDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  /** More fields of the post, shown after its media (the network options). */
  children?: ComponentChildren;
  /**
   * Written once for several accounts: these counters (one per account) in place of the one
   * network's, and no Threads-only fields (a spoiler's offsets would not survive a split).
   */
  counters?: ComponentChildren;
}) {
  const { post, index, network } = props;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const counter = countText(network, post.text, serverText(props.account), index);
  const path = `posts.${index}`;
  const update = (patch: Partial<PostDraft>) => props.onChange((p) => ({ ...p, ...patch }));
  const uploads = useUploads(props.teamId, props.onChange);
  const [dropping, setDropping] = useState(false);
  // Written once for several accounts: no spoiler offsets (they would not survive a split).
  const spoilers = networkOptions(network).spoilers && props.counters === undefined;
  const topic = networkOptions(network).topic && props.counters === undefined;
  const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

  const markSpoiler = () => {
    const el = textarea.current;
    if (!el || el.selectionEnd <= el.selectionStart) return;
    const range = { offset: el.selectionStart, length: el.selectionEnd - el.selectionStart };
    const overlaps = post.spoilerRanges.some((r) => range.offset < r.offset + r.length && r.offset < range.offset + range.length);
    if (overlaps) return;
    update({ spoilerRanges: [...post.spoilerRanges, range].sort((a, b) => a.offset - b.offset) });
  };

  return (
    <li
      class={`card post-editor${dropping ? ' dropping' : ''}`}
      data-post={index}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(e) => {
        // Leaving for one of the post's own fields is not leaving the post.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setDropping(false);
        uploads.add(Array.from(e.dataTransfer?.files ?? []));
      }}
      onPaste={(e) => {
        // Only files: pasted text goes into the field as usual.
        const files = Array.from(e.clipboardData?.files ?? []);
        if (!files.length) return;
        e.preventDefault();
        uploads.add(files);
      }}
    >
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
      {props.counters ?? (
        <p class={`counter${counter.over ? ' over' : ''}`} aria-live="polite" data-counter={index}>
          {counter.label}
          {counter.over ? ' — too long' : ''}
        </p>
      )}
      {spoilers && (
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
      {topic && (
        <Field label={`Post ${index + 1} topic`} name={`${path}.topic`} error={faultAt(props.error, `${path}.topic`)} hint="Optional; no “.” or “&”.">
          {(control) => <input {...control} value={post.topic} onInput={(e) => update({ topic: e.currentTarget.value })} />}
        </Field>
      )}
      <MediaList
        post={post}
        path={path}
        postNumber={index + 1}
        network={network}
        maxMedia={props.account && serverText(props.account) ? props.account.limits.mediaPerPost : null}
        error={props.error}
        onChange={props.onChange}
        uploads={uploads}
      />
      {props.children}
    </li>
  );
}

/** Uploads of one post: each file is sent at once, its item updated as its bytes go out. */
function useUploads(teamId: string | undefined, onChange: (update: (post: PostDraft) => PostDraft) => void) {
  const { api } = useApp();
  const running = useRef(new Map<string, AbortController>());
  // A post removed (or the page left) stops its uploads: nothing would show their outcome.
  useEffect(
    () => () => {
      for (const upload of running.current.values()) upload.abort();
    },
    [],
  );
  const setItem = (key: string, patch: Partial<MediaDraft>) => onChange((p) => ({ ...p, media: p.media.map((m) => (m.key === key ? { ...m, ...patch } : m)) }));
  return {
    add(files: File[]) {
      for (const file of files) {
        const key = newKey();
        const controller = new AbortController();
        running.current.set(key, controller);
        const type = file.type.startsWith('video/') ? 'VIDEO' : 'IMAGE';
        onChange((p) => ({ ...p, media: [...p.media, { key, source: 'upload', url: '', altText: '', type, name: file.name, progress: 0 }] }));
        api.media
          .upload(file, { ...(teamId ? { teamId } : {}), signal: controller.signal, onProgress: (sent) => setItem(key, { progress: sent }) })
          .then((media) => setItem(key, { url: media.url, type: media.type, progress: undefined }))
          .catch((err: unknown) => {
            if (err instanceof DOMException && err.name === 'AbortError') return;
            setItem(key, { progress: undefined, error: err instanceof ApiError ? err.detail : String(err) });
          })
          .finally(() => running.current.delete(key));
      }
    },
    /** Stops the item's upload, if it is still under way. */
    cancel(key: string) {
      running.current.get(key)?.abort();
    },
  };
}

type Uploads = ReturnType<typeof useUploads>;

/** A post's images and videos: thumbnails, alt text beside each, order, uploads and URLs. */
function MediaList(props: {
  post: PostDraft;
  path: string;
  postNumber: number;
  network: Network;
  /** The server's own media count (a Mastodon server's), shown against the post's items. */
  maxMedia: number | null;
  error: ApiError | null;
  onChange: (update: (post: PostDraft) => PostDraft) => void;
  uploads: Uploads;
}) {
  const { post, path, postNumber } = props;
  const chooser = useRef<HTMLInputElement>(null);
  const setMedia = (media: (list: MediaDraft[]) => MediaDraft[]) => props.onChange((p) => ({ ...p, media: media(p.media) }));
  const setItem = (key: string, patch: Partial<MediaDraft>) => setMedia((list) => list.map((m) => (m.key === key ? { ...m, ...patch } : m)));
  /** Puts the item at index `to`: the item there and those after it move one on (or back). */
  const moveTo = (key: string, to: number) =>
    setMedia((list) => {
      const from = list.findIndex((m) => m.key === key);
      if (from < 0 || to < 0 || to >= list.length || from === to) return list;
      const next = [...list];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved!);
      return next;
    });
  const move = (key: string, by: -1 | 1) => moveTo(key, post.media.findIndex((m) => m.key === key) + by);
  // Reordering by drag and drop, for a pointer; the ↑ ↓ buttons stay for the keyboard and touch.
  // Only an item of this post's list is taken (another post's list never sees `dragged` set).
  const [dragged, setDragged] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const endDrag = () => {
    setDragged(null);
    setDropAt(null);
  };
  // The API's faults name an item by its index in what was sent, which leaves out the items
  // still uploading or failed: each shown item's index there, or -1.
  let sent = 0;
  const sentIndex = post.media.map((m) => (sendable(m) ? sent++ : -1));
  const listFault = props.error?.at(`${path}.media`);

  return (
    <fieldset class="media">
      <legend>Images and videos of post {postNumber}</legend>
      {post.media.length > 0 && (
        <ol class="media-items">
          {post.media.map((m, j) => {
            const label = `${m.type === 'VIDEO' ? 'Video' : 'Image'} ${j + 1}`;
            const faultPath = sentIndex[j]! >= 0 ? `${path}.media.${sentIndex[j]}` : null;
            const urlFault = faultPath ? faultAt(props.error, `${faultPath}.url`) : undefined;
            const unreachable = fetchesMediaUrls(props.network) && !urlFault && m.url ? unreachableHost(m.url) : null;
            return (
              <li
                key={m.key}
                class={`media-item${dragged === m.key ? ' dragged' : ''}${dropAt === j && dragged !== m.key ? ' drop-target' : ''}`}
                aria-label={`${label} of post ${postNumber}`}
                data-media={j}
                onDragOver={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
                  if (dropAt !== j) setDropAt(j);
                }}
                onDragLeave={(e) => {
                  if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropAt((at) => (at === j ? null : at));
                }}
                onDrop={(e) => {
                  if (dragged === null) return;
                  e.preventDefault();
                  e.stopPropagation();
                  moveTo(dragged, j);
                  endDrag();
                }}
              >
                <div class="media-thumb">
                  {m.source === 'upload' && m.url && m.progress === undefined ? (
                    m.type === 'VIDEO' ? (
                      // The first frame as the poster: only the metadata and that frame are read.
                      <video src={`${m.url}#t=0.1`} preload="metadata" muted playsInline aria-label={`${label} preview`} />
                    ) : (
                      <img src={m.url} alt={`${label} preview`} />
                    )
                  ) : (
                    <span class="media-placeholder" aria-hidden="true">
                      {m.type === 'VIDEO' ? '▶' : '▨'}
                    </span>
                  )}
                </div>
                <div class="media-fields">
                  {m.source === 'upload' && m.name && <p class="media-name">{m.name}</p>}
                  {m.progress !== undefined && (
                    <div class="media-progress">
                      <progress max={1} value={m.progress} aria-label={`Uploading ${m.name ?? label}`} />
                      <span>{Math.round(m.progress * 100)}%</span>
                    </div>
                  )}
                  {m.error && (
                    <p class="field-error" role="alert" data-media-error={j}>
                      {m.error}
                    </p>
                  )}
                  {m.source === 'link' && (
                    <Field label={`${label} URL`} name={`${path}.media.${j}.url`} error={urlFault}>
                      {(control) => (
                        <input
                          {...control}
                          type="url"
                          inputMode="url"
                          value={m.url}
                          onInput={(e) => {
                            const url = e.currentTarget.value;
                            setItem(m.key, { url, type: VIDEO_URL.test(url) ? 'VIDEO' : 'IMAGE' });
                          }}
                        />
                      )}
                    </Field>
                  )}
                  {m.source === 'upload' && urlFault && (
                    <p class="field-error" data-field-error={`${path}.media.${j}.url`}>
                      {urlFault}
                    </p>
                  )}
                  {unreachable && (
                    <p class="media-reach" data-media-reach={j}>
                      Threads fetches media itself and cannot fetch this one: {unreachable}.{' '}
                      {m.source === 'upload'
                        ? 'Uploads are served at PUBLIC_URL: set PUBLIC_URL to a public address (or keep uploads in S3 storage, SKEIN_MEDIA_S3_BUCKET) before this is published.'
                        : 'Use a URL on a public host.'}
                    </p>
                  )}
                  {!m.error && (
                    <Field
                      label={`${label} alt text`}
                      name={`${path}.media.${j}.altText`}
                      error={faultPath ? faultAt(props.error, `${faultPath}.altText`) : undefined}
                    >
                      {(control) => <input {...control} value={m.altText} onInput={(e) => setItem(m.key, { altText: e.currentTarget.value })} />}
                    </Field>
                  )}
                </div>
                <div class="media-tools">
                  <span
                    class="media-handle"
                    draggable
                    aria-hidden="true"
                    title="Drag to reorder"
                    data-media-handle={j}
                    onDragStart={(e) => {
                      if (!e.dataTransfer) return;
                      // A type of Skein's own: a text field the item passes over takes nothing.
                      e.dataTransfer.setData('application/x-skein-media', m.key);
                      e.dataTransfer.effectAllowed = 'move';
                      const item = e.currentTarget.closest('li');
                      if (item) e.dataTransfer.setDragImage(item, 16, 16);
                      setDragged(m.key);
                    }}
                    onDragEnd={endDrag}
                  >
                    ⠿
                  </span>
                  <button type="button" aria-label={`Move ${label.toLowerCase()} of post ${postNumber} up`} disabled={j === 0} onClick={() => move(m.key, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move ${label.toLowerCase()} of post ${postNumber} down`}
                    disabled={j === post.media.length - 1}
                    onClick={() => move(m.key, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    aria-label={`Remove ${label.toLowerCase()} of post ${postNumber}`}
                    onClick={() => {
                      props.uploads.cancel(m.key);
                      setMedia((list) => list.filter((x) => x.key !== m.key));
                    }}
                  >
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {listFault && (
        <p class="field-error" data-field-error={`${path}.media`}>
          {listFault}
        </p>
      )}
      <div class="media-add">
        <input
          ref={chooser}
          type="file"
          accept={ACCEPT}
          multiple
          hidden
          onChange={(e) => {
            props.uploads.add(Array.from(e.currentTarget.files ?? []));
            // Cleared, so choosing the same file again is a change too.
            e.currentTarget.value = '';
          }}
        />
        <button type="button" onClick={() => chooser.current?.click()}>
          Add image or video
        </button>
        <button type="button" onClick={() => setMedia((list) => [...list, { key: newKey(), source: 'link', url: '', altText: '', type: 'IMAGE' }])}>
          Add by URL
        </button>
        <span class="hint">or drop files on the post, or paste an image</span>
      </div>
      {props.maxMedia !== null && (
        <p class={`hint counter${post.media.length > props.maxMedia ? ' over' : ''}`} data-media-counter={postNumber - 1}>
          {post.media.length} / {props.maxMedia} images or videos on this server{post.media.length > props.maxMedia ? ' — too many' : ''}
        </p>
      )}
    </fieldset>
  );
}

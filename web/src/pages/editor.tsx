import { useEffect, useState } from 'preact/hooks';
import { ApiError, isChangedElsewhere } from '../api/client.js';
import type { Provider } from '../api/providers.js';
import { providerOf, type Tag, type Thread, threadPath } from '../api/threads.js';
import { useApp } from '../app-state.js';
import { Field } from '../components/field.js';
import { FollowUps } from '../components/follow-ups.js';
import { faultAt, mediaBody, mediaDrafts, newPostDraft, type PostDraft, PostEditor, uploading } from '../components/post-editor.js';
import { PublishedThread } from '../components/published-thread.js';
import { TagInput } from '../components/tag-input.js';
import { FormMessage, useSubmit } from '../form.js';
import { NETWORK_NAMES, postsPerThread } from '../providers.js';
import { navigate, useLocation } from '../router.js';
import { networkOptions } from '../text-rules.js';
import { calendarHref } from './calendar-place.js';
import { useWorkspaceRole } from './settings/team-members.js';
import './editor.css';
import { formatInZone, inputValue } from '../time.js';
import { ApprovalStatus, writerSaveHint } from './editor/approval.js';
import { Comments } from './editor/comments.js';
import {
  OPTION_FAULT_PATHS,
  PostOptions,
  type PostOptionsDraft,
  postOptionsBody,
  postOptionsDraft,
  ThreadOptions,
  threadOptionsBody,
  threadOptionsDraft,
} from './editor/network-options.js';
import { REPEAT_FAULT_PATHS, RepeatControl, repeatBody, repeatDraft } from './editor/repeat.js';
import { SeveralAccounts, SeveralToggle } from './editor/several.js';

/** The paths the editor shows next to a field; any other fault goes to the form's message. */
const PLACED = /^(providerId|scheduleAt|queue|autoRepost(\..*)?|tags(\..*)?|posts\.\d+\.(text|topic|media(\.\d+\.(url|altText))?|spoilerRanges(\..*)?))$/;

type Action = 'draft' | 'schedule' | 'queue';

/** /threads/new (optionally ?at=<instant>&providerId=…) and /threads/:id. */
export function EditorPage() {
  const { path } = useLocation();
  const id = path === '/threads/new' ? null : decodeURIComponent(path.slice('/threads/'.length));
  return <ThreadEditor key={id ?? 'new'} threadId={id} />;
}

function ThreadEditor({ threadId }: { threadId: string | null }) {
  const { api, account } = useApp();
  const { search } = useLocation();
  const zone = account.timezone;
  const [providers, setProviders] = useState<Provider[] | null>(null);
  const [knownTags, setKnownTags] = useState<Tag[]>([]);
  const [thread, setThread] = useState<Thread | null>(null);
  /** The ETag of the thread as the form shows it: every change is sent with it (If-Match). */
  const [etag, setEtag] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [providerId, setProviderId] = useState(search.get('providerId') ?? '');
  const [posts, setPosts] = useState<PostDraft[]>(() => [newPostDraft()]);
  const [tags, setTags] = useState<string[]>([]);
  const [when, setWhen] = useState(() => (search.get('at') ? inputValue(search.get('at')!, zone) : ''));
  const [repostHours, setRepostHours] = useState('');
  const [threadOptions, setThreadOptions] = useState(() => threadOptionsDraft());
  /** Each post's network options, by the post's key (so they follow it when posts move). */
  const [postOptions, setPostOptions] = useState<Record<string, PostOptionsDraft>>({});
  const [repeat, setRepeat] = useState(() => repeatDraft());
  const [notice, setNotice] = useState('');
  /** A new thread written once for several accounts (editor/several.tsx). */
  const [several, setSeveral] = useState(false);
  const { busy, error, setError, run } = useSubmit();
  const role = useWorkspaceRole();

  useEffect(() => {
    document.title = threadId ? 'Thread · Skein' : 'New thread · Skein';
    api.providers
      .list()
      .then((list) => {
        const usable = list.filter((p) => p.status !== 'REVOKED');
        setProviders(usable);
        if (!threadId) setProviderId((current) => current || usable[0]?.id || '');
      })
      .catch((err) => {
        setProviders([]);
        setNotice(`The accounts could not be loaded: ${err instanceof ApiError ? err.detail : String(err)}`);
      });
    api.tags
      .list()
      .then(setKnownTags)
      .catch(() => undefined);
    if (threadId) void load(threadId);
  }, [api, threadId]);

  async function load(id: string): Promise<Thread | null> {
    try {
      // The thread (and its ETag) before its tags: a tag change in between makes the ETag stale,
      // so the save is refused (412) rather than the change lost under the tags shown.
      const read = await api.threads.get(id);
      const threadTags = await api.threads.tags(id);
      const t = read.thread;
      setThread(t);
      setEtag(read.etag);
      setPosts(
        t.posts.map((p) => ({
          key: p.id,
          id: p.id,
          text: p.content,
          topic: p.topic ?? '',
          media: mediaDrafts(p.postMedia),
          spoilerRanges: p.spoilerRanges,
        })),
      );
      setTags(threadTags.map((tag) => tag.name));
      setThreadOptions(threadOptionsDraft(t));
      setPostOptions(Object.fromEntries(t.posts.map((p) => [p.id, postOptionsDraft(p)])));
      setWhen(t.scheduledAt ? inputValue(t.scheduledAt, zone) : '');
      setRepostHours(t.posts[0]?.autoRepostDelay[0] ?? '');
      setRepeat(repeatDraft(t));
      return t;
    } catch (err) {
      setLoadError(err instanceof ApiError ? err.detail : String(err));
      return null;
    }
  }

  useEffect(() => {
    if (thread && providers) setProviderId(providerOf(thread, providers)?.id ?? '');
  }, [thread, providers]);

  const provider = providers?.find((p) => p.id === providerId);
  const network = provider?.provider ?? thread?.provider ?? 'THREADS';
  const editable = !thread || thread.posts.every((p) => p.status === 'READY');

  const takes = networkOptions(network);
  const postBodies = () =>
    posts.map((p) => ({
      ...(p.id ? { id: p.id } : {}),
      text: p.text,
      ...(p.topic.trim() && takes.topic ? { topic: p.topic.trim() } : {}),
      media: mediaBody(p),
      ...(takes.spoilers ? { spoilerRanges: p.spoilerRanges } : {}),
      ...postOptionsBody(optionsOf(p.key)),
    }));
  const optionsOf = (key: string) => postOptions[key] ?? postOptionsDraft();

  // A save is one request (Create Post, or Edit Entire Thread with the tags and the time), so it
  // lands whole or not at all; an edit is based on the ETag read, so one made elsewhere meanwhile
  // is not overwritten (412: the form keeps what was typed, and offers a reload).
  // `stop`: "Stop repeating", the form saved with `repeat: null`.
  const save = (action: Action, stop = false) =>
    run(async () => {
      setNotice('');
      if (uploading(posts)) throw new ApiError(400, 'UPLOADING', 'A file is still uploading: save once its progress bar is gone.');
      if (action === 'schedule' && !when) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'Choose a time', [{ path: 'scheduleAt', message: 'choose a date and time to schedule' }]);
      }
      const time = action === 'schedule' ? { scheduleAt: `${when}:00` } : action === 'queue' ? { queue: true } : {};
      if (!thread) {
        const body = {
          providerId,
          posts: postBodies().map(({ id: _id, ...rest }) => rest),
          ...time,
          ...(repostHours.trim() ? { autoRepost: { enabled: true, delays: [repostHours.trim()] } } : {}),
          ...(tags.length ? { tags } : {}),
          ...threadOptionsBody(threadOptions),
          ...repeatBody(repeat, null),
        };
        const created = await api.threads.create(body);
        navigate(threadPath(created.threadId), { replace: true });
        return;
      }
      const repeating = stop ? { repeat: null } : repeatBody(repeat, thread);
      await api.threads.edit(thread.threadId, { posts: postBodies(), tags, ...threadOptionsBody(threadOptions), ...time, ...repeating }, etag);
      const saved = await load(thread.threadId);
      const done = stop ? 'Saved: the series ends with this one.' : action === 'draft' ? 'Saved.' : action === 'queue' ? 'Added to the queue.' : 'Scheduled.';
      setNotice(saved?.approval?.state === 'PENDING' ? `${done} It waits for an editor’s approval.` : done);
    });

  const remove = () =>
    run(async () => {
      if (!thread || !confirm('Delete this thread? What is published stays on the network.')) return;
      await api.threads.delete(thread.threadId, etag);
      navigate(calendarHref());
    });

  const retry = () =>
    run(async () => {
      if (!thread) return;
      await api.threads.retry(thread.threadId, etag);
      await load(thread.threadId);
      setNotice('Retrying now.');
    });

  const refreshAnalytics = () =>
    run(async () => {
      if (!thread) return;
      setThread(await api.threads.refreshAnalytics(thread.threadId));
      setNotice('Analytics refreshed.');
    });

  // While the thread is being published (or has just fallen due), its status is read again every
  // few seconds, so a retry or a due thread ends on the page as PUBLISHED or FAILED without a
  // reload. A thread due for more than 10 minutes is not waited for (no publisher is running?).
  // (From 30 s before: the browser's clock may run behind the server's.)
  const dueFor = thread?.scheduledAt ? Date.now() - Date.parse(thread.scheduledAt) : Number.NEGATIVE_INFINITY;
  const publishing = thread !== null && (thread.status === 'PUBLISHING' || (thread.status === 'READY' && dueFor >= -30_000 && dueFor < 10 * 60_000));
  useEffect(() => {
    if (!publishing || !thread) return;
    const timer = setTimeout(() => {
      api.threads
        .get(thread.threadId)
        .then((r) => {
          setThread(r.thread);
          // Once it cannot be edited the page shows what was read; while it can, the form still
          // holds what was loaded, and its ETag stays the one that goes with it.
          if (!r.thread.posts.every((p) => p.status === 'READY')) setEtag(r.etag);
        })
        .catch(() => undefined);
    }, 4000);
    return () => clearTimeout(timer);
  }, [api, thread, publishing]);

  if (loadError) return <Missing message={loadError} />;
  if (threadId && !thread) return <section aria-busy="true" class="editor-page editor-loading" />;

  // By key, on the posts as they are when it lands: an upload ends after other edits and moves.
  const updatePost = (key: string, update: (post: PostDraft) => PostDraft) => setPosts((all) => all.map((p) => (p.key === key ? update(p) : p)));
  const movePost = (i: number, by: -1 | 1) => {
    const next = [...posts];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved!);
    setPosts(next);
  };
  const failure = thread?.posts.find((p) => p.error)?.error;
  const message = editorMessage(error);
  const reload = () =>
    run(async () => {
      if (!thread) return;
      setError(null);
      await load(thread.threadId);
      setNotice('Reloaded: this is the thread as it is now.');
    });
  // Shown next to the buttons that sent the change, where the eye is after clicking.
  const conflict = isChangedElsewhere(error) && thread && (
    <div class="card conflict" role="alert">
      <p>
        This thread was changed elsewhere since you opened it (in another tab, by a teammate or through the API), so nothing was saved. What you typed is still
        here: copy what you want to keep, then reload to see the thread as it is now.
      </p>
      <button type="button" class="primary" onClick={reload} disabled={busy}>
        Reload the thread
      </button>
    </div>
  );

  if (several && providers) {
    return (
      <div class="stack editor editor-page">
        <h1>New thread</h1>
        <SeveralAccounts
          providers={providers}
          first={providerId}
          zone={zone}
          knownTags={knownTags}
          draft={{ posts, setPosts, tags, setTags, when, setWhen }}
          onSingle={() => setSeveral(false)}
        />
      </div>
    );
  }

  return (
    <div class="stack editor editor-page">
      <h1>{thread ? (editable ? 'Edit thread' : 'Thread') : 'New thread'}</h1>
      {thread && (
        <p class="hint">
          Status <strong class={`status-${thread.status.toLowerCase()}`}>{thread.status}</strong>
          {thread.scheduledAt ? ` · ${formatInZone(thread.scheduledAt, zone)} (${zone})` : ' · draft'}
        </p>
      )}
      {thread && <ApprovalStatus thread={thread} zone={zone} />}
      {thread?.status === 'FAILED' && (
        <div class="card failure" role="alert">
          <p>Publishing failed{failure ? `: ${failure.message} (${failure.code})` : '.'}</p>
          <button type="button" class="primary" onClick={retry} disabled={busy}>
            Retry
          </button>
        </div>
      )}
      {!editable && thread ? (
        <PublishedThread thread={thread} zone={zone} />
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save(thread?.scheduledAt ? 'schedule' : 'draft');
          }}
        >
          <Field
            label="Account"
            name="providerId"
            error={faultAt(error, 'providerId')}
            hint={providers?.length === 0 ? 'No connected account yet: connect one on the Accounts page.' : undefined}
          >
            {(control) => (
              <select {...control} value={providerId} disabled={!!thread} onChange={(e) => setProviderId(e.currentTarget.value)}>
                {!providers && <option value="">Loading…</option>}
                {providers?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {NETWORK_NAMES[p.provider]} · @{p.username}
                    {p.status === 'EXPIRED' ? ' (expired)' : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {!thread && (providers?.length ?? 0) > 1 && <SeveralToggle on={false} onChange={() => setSeveral(true)} />}
          <ol class="posts">
            {posts.map((post, i) => (
              <PostEditor
                key={post.key}
                post={post}
                index={i}
                count={posts.length}
                network={network}
                account={provider ?? null}
                teamId={provider ? (provider.teamId ?? 'personal') : undefined}
                error={error}
                onChange={(update) => updatePost(post.key, update)}
                onMove={(by) => movePost(i, by)}
                onRemove={() => setPosts(posts.filter((_, k) => k !== i))}
              >
                <PostOptions
                  network={network}
                  index={i}
                  options={optionsOf(post.key)}
                  hasMedia={mediaBody(post).length > 0}
                  error={error}
                  onChange={(options) => setPostOptions((all) => ({ ...all, [post.key]: options }))}
                />
              </PostEditor>
            ))}
          </ol>
          <button type="button" class="add-post" onClick={() => setPosts([...posts, newPostDraft()])} disabled={posts.length >= postsPerThread([network])}>
            Add post
          </button>
          <ThreadOptions network={network} options={threadOptions} error={error} onChange={setThreadOptions} />
          <TagInput tags={tags} known={knownTags} onChange={setTags} error={faultAt(error, 'tags')} />
          <Field
            label="Auto-repost after (hours)"
            name="autoRepost.delays"
            error={faultAt(error, 'autoRepost')}
            hint={thread ? 'Set when the thread was created.' : 'Optional, 1 to 168: the first post is reposted this long after it is published.'}
          >
            {(control) => (
              <input {...control} inputMode="numeric" value={repostHours} disabled={!!thread} onInput={(e) => setRepostHours(e.currentTarget.value)} />
            )}
          </Field>
          <Field label={`Publish at (${zone})`} name="scheduleAt" error={faultAt(error, 'scheduleAt') ?? faultAt(error, 'queue')}>
            {(control) => <input {...control} type="datetime-local" value={when} onInput={(e) => setWhen(e.currentTarget.value)} />}
          </Field>
          <RepeatControl
            draft={repeat}
            timed={when !== '' || !!thread?.scheduledAt}
            thread={thread}
            busy={busy}
            error={error}
            onChange={setRepeat}
            onStop={() => void save('draft', true)}
          />
          {writerSaveHint(role, thread) && (
            <p class="hint approval-hint" data-approval-hint>
              {writerSaveHint(role, thread)}
            </p>
          )}
          <FormMessage message={message || null} />
          {conflict}
          <div class="actions wrap">
            <button type="button" onClick={() => void save('draft')} disabled={busy}>
              {thread ? 'Save changes' : 'Save as draft'}
            </button>
            <button type="button" class="primary" onClick={() => void save('schedule')} disabled={busy}>
              {thread?.scheduledAt ? 'Reschedule' : 'Schedule'}
            </button>
            <button type="button" onClick={() => void save('queue')} disabled={busy}>
              Add to queue
            </button>
            {thread && (
              <button type="button" class="danger" onClick={remove} disabled={busy}>
                Delete
              </button>
            )}
            <span class="status" role="status">
              {notice}
            </span>
          </div>
        </form>
      )}
      {thread && <FollowUps threadId={thread.threadId} network={thread.provider} account={provider ?? null} zone={zone} />}
      {thread && <Comments thread={thread} teamId={provider ? provider.teamId : account.activeTeamId} zone={zone} />}
      {!editable && conflict}
      {!editable && thread && (
        <div class="actions wrap">
          {thread.posts.some((p) => p.publishedAt) && (
            <button type="button" onClick={refreshAnalytics} disabled={busy}>
              Refresh analytics
            </button>
          )}
          <button type="button" class="danger" onClick={remove} disabled={busy}>
            Delete
          </button>
          <span class="status" role="status">
            {notice}
          </span>
          {error && !error.errors.length && !isChangedElsewhere(error) && <p class="form-message">{error.detail}</p>}
        </div>
      )}
    </div>
  );
}

/** The form's message: the faults no field shows, or the detail of an error that names no field. */
function editorMessage(error: ApiError | null): string | null {
  if (!error || isChangedElsewhere(error)) return null;
  const unplaced = error.errors.filter((e) => !PLACED.test(e.path) && !OPTION_FAULT_PATHS.test(e.path) && !REPEAT_FAULT_PATHS.test(e.path));
  if (unplaced.length) return unplaced.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  return error.errors.length ? null : error.detail;
}

function Missing({ message }: { message: string }) {
  return (
    <section>
      <h1>Thread not found</h1>
      <p>{message}</p>
      <p>
        <a href={calendarHref()}>Back to the calendar</a>
      </p>
    </section>
  );
}

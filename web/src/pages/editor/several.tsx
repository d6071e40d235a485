import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client.js';
import type { Provider } from '../../api/providers.js';
import { type Tag, threadPath } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { Field } from '../../components/field.js';
import { faultAt, newPostDraft, type PostDraft, PostEditor, uploading } from '../../components/post-editor.js';
import { TagInput } from '../../components/tag-input.js';
import { FormMessage, useSubmit } from '../../form.js';
import { NETWORK_NAMES, postsPerThread } from '../../providers.js';
import { navigate } from '../../router.js';
import { serverText } from '../../text-rules.js';
import { dateKey, partsIn } from '../../time.js';
import { type Chain, chainsOf, countPart, editPart, importRows, type SplitEdits, sharedTag } from './chains.js';
import { ChainPreviews } from './preview.js';

type Action = 'draft' | 'schedule' | 'queue';

/** What the new-thread editor shares with this mode, so switching keeps what was typed. */
export interface SharedDraft {
  posts: PostDraft[];
  setPosts: (update: (posts: PostDraft[]) => PostDraft[]) => void;
  tags: string[];
  setTags: (tags: string[]) => void;
  when: string;
  setWhen: (when: string) => void;
}

/**
 * The new-thread editor written once for several accounts: the accounts chosen, the thread
 * written once with each account's counter, each account's chain (split where its network needs
 * it, editable), a live preview beside it, and one all-or-nothing import that saves a thread per
 * account with a shared tag. A fault of the import (`rows.N…`) is shown at account N's part.
 */
export function SeveralAccounts(props: { providers: Provider[]; first: string; zone: string; knownTags: Tag[]; draft: SharedDraft; onSingle: () => void }) {
  const { api, account } = useApp();
  const { posts, setPosts, tags, when } = props.draft;
  const [chosen, setChosen] = useState<string[]>(() => (props.first ? [props.first] : []));
  const [warnings, setWarnings] = useState<Record<string, string>>({});
  const [edits, setEdits] = useState<SplitEdits>({});
  const [notice, setNotice] = useState<ComponentChildren>(null);
  const { busy, error, run } = useSubmit();
  // In the order of the accounts list, so the rows' order does not depend on the clicks'.
  const accounts = props.providers.filter((p) => chosen.includes(p.id));
  const chains = chainsOf(accounts, posts, warnings, edits);

  const toggle = (id: string, on: boolean) => setChosen((list) => (on ? [...list, id] : list.filter((x) => x !== id)));
  const updatePost = (key: string, update: (post: PostDraft) => PostDraft) => setPosts((all) => all.map((p) => (p.key === key ? update(p) : p)));
  const movePost = (i: number, by: -1 | 1) =>
    setPosts((all) => {
      const next = [...all];
      const [moved] = next.splice(i, 1);
      next.splice(i + by, 0, moved!);
      return next;
    });

  const save = (action: Action) =>
    run(async () => {
      setNotice(null);
      if (accounts.length === 0) throw new ApiError(400, 'VALIDATION_FAILED', 'Choose at least one account.');
      if (uploading(posts)) throw new ApiError(400, 'UPLOADING', 'A file is still uploading: save once its progress bar is gone.');
      if (action === 'schedule' && !when) {
        throw new ApiError(400, 'VALIDATION_FAILED', 'Choose a time', [{ path: 'scheduleAt', message: 'choose a date and time to schedule' }]);
      }
      const time = action === 'schedule' ? { scheduleAt: `${when}:00` } : action === 'queue' ? { queue: true as const } : {};
      const tag = sharedTag();
      const answer = await api.threads.import({ rows: importRows(chains, posts, time, [...tags, tag]) }, false);
      const days = answer.threads.flatMap((t) => (t.scheduledAt ? [dateKey(partsIn(t.scheduledAt, account.timezone))] : [])).sort();
      if (days[0]) {
        navigate(`/calendar?date=${days[0]}`);
        return;
      }
      setNotice(
        <>
          Saved {answer.created} drafts, tagged {tag}:{' '}
          {answer.threads.map((t, i) => (
            <a key={t.threadId} href={threadPath(t.threadId ?? '')}>
              {i > 0 ? ', ' : ''}
              {NETWORK_NAMES[accounts[t.row]!.provider]}
            </a>
          ))}
        </>,
      );
    });

  const teamId = accounts[0] ? (accounts[0].teamId ?? 'personal') : undefined;
  // The media count shown is the strictest chosen account's with limits of its own (a Mastodon
  // server's; the other networks' are checked at save).
  const strictest = accounts.filter((p) => serverText(p) !== null).sort((a, b) => a.limits.mediaPerPost - b.limits.mediaPerPost)[0] ?? null;
  const unplaced = error?.errors.filter((e) => !/^rows\.\d+\./.test(e.path) && e.path !== 'scheduleAt') ?? [];
  const message =
    error && (unplaced.length ? unplaced.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ') : error.errors.length ? null : error.detail);

  return (
    <div class="several">
      <form noValidate class="several-form" onSubmit={(e) => e.preventDefault()}>
        <SeveralToggle on onChange={props.onSingle} />
        <fieldset class="accounts-choice">
          <legend>Accounts</legend>
          {props.providers.map((p) => (
            <label key={p.id} class="check">
              <input type="checkbox" checked={chosen.includes(p.id)} onChange={(e) => toggle(p.id, e.currentTarget.checked)} />
              {NETWORK_NAMES[p.provider]} · @{p.username}
              {p.status === 'EXPIRED' ? ' (expired)' : ''}
            </label>
          ))}
        </fieldset>
        <h2>The thread, written once</h2>
        <ol class="posts">
          {posts.map((post, i) => (
            <PostEditor
              key={post.key}
              post={post}
              index={i}
              count={posts.length}
              network={accounts[0]?.provider ?? 'BLUESKY'}
              account={strictest}
              teamId={teamId}
              error={null}
              onChange={(update) => updatePost(post.key, update)}
              onMove={(by) => movePost(i, by)}
              onRemove={() => setPosts((all) => all.filter((p) => p.key !== post.key))}
              counters={<Counters chains={chains} post={post} />}
            >
              <Field
                label={`Post ${i + 1} content warning`}
                name={`warning.${i}`}
                hint="Optional: Mastodon shows it in place of the post, Threads hides the post as a spoiler; Bluesky has no such warning."
              >
                {(control) => (
                  <input {...control} value={warnings[post.key] ?? ''} onInput={(e) => setWarnings((all) => ({ ...all, [post.key]: e.currentTarget.value }))} />
                )}
              </Field>
            </PostEditor>
          ))}
        </ol>
        <button
          type="button"
          class="add-post"
          onClick={() => setPosts((all) => [...all, newPostDraft()])}
          disabled={posts.length >= postsPerThread(accounts.map((p) => p.provider))}
        >
          Add post
        </button>
        {chains.length > 0 && <h2>As each account posts it</h2>}
        {chains.map((chain, row) => (
          <ChainEditor
            key={chain.provider.id}
            chain={chain}
            row={row}
            error={error}
            onEdit={(index, text) => setEdits((all) => editPart(all, chain, index, text, posts))}
            onReset={() => setEdits((all) => ({ ...all, [chain.provider.id]: {} }))}
          />
        ))}
        <TagInput tags={tags} known={props.knownTags} onChange={props.draft.setTags} />
        <p class="hint">Each thread also gets a tag of its own save, “together-…”, so the calendar's tag filter shows them together.</p>
        <Field label={`Publish at (${props.zone})`} name="scheduleAt" error={faultAt(error, 'scheduleAt')}>
          {(control) => <input {...control} type="datetime-local" value={when} onInput={(e) => props.draft.setWhen(e.currentTarget.value)} />}
        </Field>
        <FormMessage message={message || null} />
        <div class="actions wrap">
          <button type="button" onClick={() => void save('draft')} disabled={busy}>
            Save as drafts
          </button>
          <button type="button" class="primary" onClick={() => void save('schedule')} disabled={busy}>
            Schedule for {accounts.length} {accounts.length === 1 ? 'account' : 'accounts'}
          </button>
          <button type="button" onClick={() => void save('queue')} disabled={busy}>
            Add to queues
          </button>
          <span class="status" role="status">
            {notice}
          </span>
        </div>
      </form>
      <ChainPreviews chains={chains} />
    </div>
  );
}

/** The box that switches the new-thread editor between one account and several. */
export function SeveralToggle(props: { on: boolean; onChange: () => void }) {
  return (
    <label class="check several-toggle">
      <input type="checkbox" checked={props.on} onChange={props.onChange} />
      Write once, post to several networks
    </label>
  );
}

/** A written post's counter on each chosen account, and how many posts it becomes there. */
function Counters({ chains, post }: { chains: Chain[]; post: PostDraft }) {
  const warning = (chain: Chain) => chain.parts.find((p) => p.postKey === post.key)?.warning ?? '';
  return (
    <ul class="counters" aria-live="polite">
      {chains.map((chain) => {
        const count = countPart(
          chain.provider,
          post.text,
          warning(chain),
          Math.max(
            0,
            chain.parts.findIndex((p) => p.postKey === post.key),
          ),
        );
        const parts = chain.parts.filter((p) => p.postKey === post.key).length;
        return (
          <li key={chain.provider.id} class={`counter${count.over ? ' over' : ''}`} data-counter-account={chain.provider.id}>
            {NETWORK_NAMES[chain.provider.provider]} @{chain.provider.username}: {count.label}
            {count.over ? ` — split into ${parts} posts` : ''}
          </li>
        );
      })}
    </ul>
  );
}

/** One account's chain: each part editable, with its counter and the import's faults at it. */
function ChainEditor(props: { chain: Chain; row: number; error: ApiError | null; onEdit: (index: number, text: string) => void; onReset: () => void }) {
  const { chain, row, error } = props;
  const { provider, parts } = chain;
  const name = `${NETWORK_NAMES[provider.provider]} · @${provider.username}`;
  const rowFaults = error?.errors.filter((e) => e.path === `rows.${row}` || (e.path.startsWith(`rows.${row}.`) && !e.path.startsWith(`rows.${row}.posts.`)));
  return (
    <section class="card chain-editor" aria-label={`Thread on ${name}`} data-chain={provider.id}>
      <div class="post-head">
        <h3>
          {name}: {parts.length} {parts.length === 1 ? 'post' : 'posts'}
        </h3>
        {chain.edited && (
          <button type="button" onClick={props.onReset}>
            Split again
          </button>
        )}
      </div>
      {rowFaults && rowFaults.length > 0 && (
        <p class="field-error" data-field-error={`rows.${row}`}>
          {rowFaults.map((e) => `${e.path.slice(`rows.${row}.`.length) || 'thread'}: ${e.message}`).join('; ')}
        </p>
      )}
      <ol class="chain-parts">
        {parts.map((part, i) => {
          const count = countPart(provider, part.text, part.warning, i);
          return (
            <li key={`${part.postKey}-${part.k}`}>
              <Field label={`@${provider.username} post ${i + 1}`} name={`rows.${row}.posts.${i}`} error={faultAt(error, `rows.${row}.posts.${i}`)}>
                {(control) => <textarea {...control} rows={3} value={part.text} onInput={(e) => props.onEdit(i, e.currentTarget.value)} />}
              </Field>
              <p class={`counter${count.over ? ' over' : ''}`}>
                {count.label}
                {count.over ? ' — too long' : ''}
              </p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

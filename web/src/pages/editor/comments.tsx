import { useEffect, useRef, useState } from 'preact/hooks';
import type { Member } from '../../api/account.js';
import type { Comment, Thread } from '../../api/threads.js';
import { useApp } from '../../app-state.js';
import { Field } from '../../components/field.js';
import { faultAt } from '../../components/post-editor.js';
import { FormMessage, formMessage, useSubmit } from '../../form.js';
import { formatInZone } from '../../time.js';

/** The API's limit on a comment (decisions.md "Teams"), counted in characters as the server counts them. */
const MAX_COMMENT = 5000;
const NUMBER = new Intl.NumberFormat('en');

/**
 * The team's comments on a thread (never published): listed oldest first, each with its author,
 * time and post; a new one on the thread or one of its posts. `@email` of a member mentions them
 * (the server notifies them): typing `@` offers the members whose email matches.
 */
export function Comments({ thread, teamId, zone }: { thread: Thread; teamId: string | null; zone: string }) {
  const { api } = useApp();
  const [comments, setComments] = useState<Comment[] | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [text, setText] = useState('');
  const [postId, setPostId] = useState('');
  const [caret, setCaret] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const { busy, error, run } = useSubmit();
  const threadId = thread.threadId;

  useEffect(() => {
    api.comments
      .list(threadId)
      .then(setComments)
      .catch(() => setComments([]));
  }, [api, threadId]);
  useEffect(() => {
    if (!teamId) return;
    api.teams
      .members(teamId)
      .then(setMembers)
      .catch(() => setMembers([]));
  }, [api, teamId]);

  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const added = await api.comments.add(threadId, text, postId || null);
      setComments((list) => [...(list ?? []), added]);
      setText('');
    });
  };
  const postNumber = (id: string | null) => thread.posts.findIndex((p) => p.id === id) + 1;
  const length = [...text].length;
  const mention = mentionAt(text, caret);
  const suggestions =
    mention === null
      ? []
      : members.filter((m) => m.email.toLowerCase().startsWith(mention.typed.toLowerCase()) && m.email.length > mention.typed.length).slice(0, 5);
  const insert = (email: string) => {
    if (!mention) return;
    const next = `${text.slice(0, mention.start)}@${email} ${text.slice(caret)}`;
    setText(next);
    const at = mention.start + email.length + 2;
    setCaret(at);
    setTimeout(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    }, 0);
  };
  const follow = (el: HTMLTextAreaElement) => setCaret(el.selectionStart ?? el.value.length);

  return (
    <section class="card comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <p class="hint">Notes for the team: never published.</p>
      {comments === null ? (
        <p class="status">Loading…</p>
      ) : comments.length === 0 ? (
        <p class="hint">No comments yet.</p>
      ) : (
        <ol class="comment-list">
          {comments.map((c) => (
            <li key={c.id} data-comment={c.id}>
              <p class="comment-meta">
                <strong>{c.author}</strong> · {formatInZone(c.createdAt, zone)} ·{' '}
                {c.postId ? `on post ${postNumber(c.postId) || '(removed)'}` : 'on the thread'}
              </p>
              <p class="comment-text">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={add} noValidate>
        <Field label="On" name="postId" error={faultAt(error, 'postId')}>
          {(control) => (
            <select {...control} value={postId} onChange={(e) => setPostId(e.currentTarget.value)}>
              <option value="">The whole thread</option>
              {thread.posts.map((p, i) => (
                <option key={p.id} value={p.id}>
                  Post {i + 1}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Comment"
          name="text"
          error={faultAt(error, 'text')}
          hint={teamId ? 'Mention a member with @ and their email: they are told of it.' : undefined}
        >
          {(control) => (
            <textarea
              {...control}
              ref={box}
              rows={3}
              value={text}
              onInput={(e) => {
                setText(e.currentTarget.value);
                follow(e.currentTarget);
              }}
              onKeyUp={(e) => follow(e.currentTarget)}
              onClick={(e) => follow(e.currentTarget)}
            />
          )}
        </Field>
        <p class={`counter${length > MAX_COMMENT ? ' over' : ''}`} aria-live="polite" data-comment-counter>
          {NUMBER.format(length)} / {NUMBER.format(MAX_COMMENT)}
          {length > MAX_COMMENT ? ' — too long' : ''}
        </p>
        {suggestions.length > 0 && (
          <ul class="mention-suggestions" aria-label="Members to mention">
            {suggestions.map((m) => (
              <li key={m.accountId}>
                <button type="button" class="secondary" onClick={() => insert(m.email)}>
                  Mention {m.email}
                </button>
              </li>
            ))}
          </ul>
        )}
        <FormMessage message={formMessage(error, ['text', 'postId'])} />
        <div class="actions">
          <button type="submit" disabled={busy || length > MAX_COMMENT}>
            Add comment
          </button>
        </div>
      </form>
    </section>
  );
}

/** The `@…` word the caret is at the end of, if any: where it starts and what follows the `@`. */
function mentionAt(text: string, caret: number): { start: number; typed: string } | null {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@]*(?:@[^\s@]*)?)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[1]!.length - 1, typed: match[1]! };
}

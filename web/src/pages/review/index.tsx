import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../../api/index.js';
import type { ReviewPage as Review, ReviewThread } from '../../api/review.js';
import { FormMessage, formMessage, Submit, TextField, useSubmit } from '../../form.js';
import { formatInZone } from '../../time.js';
import { ChainPreview, type PreviewChain } from '../editor/preview.js';
import './review.css';

/**
 * A review link's page (/review/<token>), without sign-in (decisions.md "Teams"): the link's
 * threads as each network will show them (the editor's preview), each with its approval and
 * comments; with approval allowed, approve, reject with a note, and comment, under the name the
 * reviewer gives once (kept in this browser). An expired, revoked or unknown link shows only
 * that it is not valid. Mobile first: one column, every control at least 44 px tall.
 */

const NAME_KEY = 'skein.reviewerName';
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function savedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

export function ReviewPage({ api, token }: { api: Api; token: string }) {
  const [review, setReview] = useState<Review | 'loading' | 'invalid' | 'failed'>('loading');
  const [name, setName] = useState(savedName);
  useEffect(() => {
    document.title = 'Review · Skein';
    api.review
      .page(token)
      .then(setReview)
      .catch((err: { status?: number }) => setReview(err.status === 404 ? 'invalid' : 'failed'));
  }, [api, token]);

  if (review === 'loading') return <Frame busy />;
  if (review === 'invalid')
    return (
      <Frame>
        <h1>This link is not valid</h1>
        <p>It may have expired or been revoked. Ask whoever sent it for a new one.</p>
      </Frame>
    );
  if (review === 'failed')
    return (
      <Frame>
        <h1>The review could not be loaded</h1>
        <p>Check the connection and reload the page.</p>
      </Frame>
    );
  const replace = (changed: ReviewThread) => setReview({ ...review, threads: review.threads.map((t) => (t.threadId === changed.threadId ? changed : t)) });
  return (
    <Frame>
      <h1>Review for {review.team}</h1>
      <p class="hint">
        Threads from {formatInZone(review.from, zone)} to {formatInZone(review.to, zone)}. This link works until {formatInZone(review.expiresAt, zone)}.
      </p>
      {review.canApprove && <ReviewerName name={name} onName={setName} />}
      {review.threads.length === 0 && <p>There are no threads to review in this range.</p>}
      <ol class="review-threads">
        {review.threads.map((t) => (
          <ThreadReview key={t.threadId} api={api} token={token} thread={t} canAct={review.canApprove && name !== ''} name={name} onChanged={replace} />
        ))}
      </ol>
    </Frame>
  );
}

function Frame({ busy = false, children }: { busy?: boolean; children?: ComponentChildren }) {
  return (
    <div class="public review-page">
      <main id="main" aria-busy={busy}>
        <p class="brand">Skein</p>
        {children}
      </main>
    </div>
  );
}

/** The reviewer's name, asked once and kept in this browser; every decision and comment is recorded with it. */
function ReviewerName({ name, onName }: { name: string; onName: (name: string) => void }) {
  const [editing, setEditing] = useState(name === '');
  const [value, setValue] = useState(name);
  const [fault, setFault] = useState<string | undefined>();
  if (!editing)
    return (
      <p class="reviewer">
        Reviewing as <strong>{name}</strong>{' '}
        <button type="button" class="link-button" onClick={() => setEditing(true)}>
          Change name
        </button>
      </p>
    );
  const save = (event: Event) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed || trimmed.length > 100) {
      setFault('Give a name of 1 to 100 characters.');
      return;
    }
    try {
      localStorage.setItem(NAME_KEY, trimmed);
    } catch {
      // Private browsing without storage: the name lasts as long as the page.
    }
    onName(trimmed);
    setEditing(false);
  };
  return (
    <form class="reviewer-form" onSubmit={save} noValidate>
      <TextField
        label="Your name"
        name="name"
        value={value}
        onValue={setValue}
        error={fault}
        autoComplete="name"
        hint="Shown with your approvals, rejections and comments."
      />
      <Submit busy={false}>Start reviewing</Submit>
    </form>
  );
}

function chainOf(thread: ReviewThread): PreviewChain {
  return {
    provider: { id: thread.threadId, provider: thread.account.network, username: thread.account.username },
    parts: thread.posts.map((p) => ({
      text: p.text,
      postKey: p.id,
      k: 0,
      media: p.media.map((m, i) => ({ key: `${p.id}-${i}`, source: 'link' as const, url: m.url, altText: m.altText ?? '', type: m.type })),
      warning: p.contentWarning ?? (p.spoilerRanges.length ? 'Spoiler' : ''),
    })),
  };
}

function approvalText(approval: ReviewThread['approval']): string {
  if (!approval) return 'No approval asked';
  if (approval.state === 'PENDING') return 'Waiting for approval';
  const who = approval.by ? ` by ${approval.by}` : '';
  return `${approval.state === 'APPROVED' ? 'Approved' : 'Rejected'}${who}${approval.note ? `: “${approval.note}”` : ''}`;
}

interface ThreadProps {
  api: Api;
  token: string;
  thread: ReviewThread;
  name: string;
  canAct: boolean;
  onChanged: (thread: ReviewThread) => void;
}

function ThreadReview(props: ThreadProps) {
  const { thread } = props;
  const when = thread.scheduledAt ? formatInZone(thread.scheduledAt, zone, { dateStyle: 'full', timeStyle: 'short' }) : 'not scheduled';
  const headingId = `thread-${thread.threadId}`;
  return (
    <li class="card review-thread" aria-labelledby={headingId} data-thread-id={thread.threadId}>
      {/* The preview below names the account: the heading is when it goes out. */}
      <h2 id={headingId}>{when}</h2>
      <p class={`approval approval-${(thread.approval?.state ?? 'none').toLowerCase()}`} role="status">
        {approvalText(thread.approval)}
      </p>
      <ChainPreview chain={chainOf(thread)} />
      <Comments thread={thread} />
      {props.canAct && <Actions {...props} />}
    </li>
  );
}

function Comments({ thread }: { thread: ReviewThread }) {
  if (thread.comments.length === 0) return null;
  return (
    <section aria-label="Comments">
      <h3>Comments</h3>
      <ul class="review-comments">
        {thread.comments.map((c) => (
          <li key={c.id}>
            <strong>{c.author}</strong> <span class="hint">{formatInZone(c.createdAt, zone)}</span>
            <p>{c.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Approve, reject with a note (pending threads only), and comment: each one request, its answer shown in place. */
function Actions({ api, token, thread, name, onChanged }: ThreadProps) {
  const [open, setOpen] = useState<'reject' | 'comment' | null>(null);
  const [text, setText] = useState('');
  const { busy, error, run } = useSubmit();
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (open) area.current?.focus();
  }, [open]);
  const pending = thread.approval?.state === 'PENDING';
  const toggle = (which: 'reject' | 'comment') => {
    setText('');
    setOpen(open === which ? null : which);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      if (open === 'reject') onChanged(await api.review.reject(token, thread.threadId, name, text));
      else {
        const comment = await api.review.comment(token, thread.threadId, name, text);
        onChanged({ ...thread, comments: [...thread.comments, comment] });
      }
      setOpen(null);
      setText('');
    });
  };
  const label = open === 'reject' ? 'Why (shown with the rejection)' : 'Comment';
  return (
    <div class="review-actions">
      <div class="review-buttons">
        {pending && (
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => void run(async () => onChanged(await api.review.approve(token, thread.threadId, name)))}
          >
            Approve
          </button>
        )}
        {pending && (
          <button type="button" aria-expanded={open === 'reject'} onClick={() => toggle('reject')}>
            Reject…
          </button>
        )}
        <button type="button" aria-expanded={open === 'comment'} onClick={() => toggle('comment')}>
          Comment…
        </button>
      </div>
      {open && (
        <form onSubmit={submit} noValidate>
          <div class={`field${error?.at(open === 'reject' ? 'note' : 'text') ? ' field-invalid' : ''}`}>
            <label for={`${thread.threadId}-${open}`}>{label}</label>
            <textarea
              id={`${thread.threadId}-${open}`}
              ref={area}
              rows={3}
              value={text}
              onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
            />
          </div>
          <Submit busy={busy}>{open === 'reject' ? 'Reject' : 'Send comment'}</Submit>
        </form>
      )}
      <FormMessage message={formMessage(error, [])} />
    </div>
  );
}

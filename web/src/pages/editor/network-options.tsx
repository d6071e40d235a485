import { useEffect, useState } from 'preact/hooks';
import { NETWORKS } from '../../../../src/networks/index.js';
import { CONTENT_WARNING_CHARS, MAX_LANGS, type NetworkOptions, POLL } from '../../../../src/networks/network.js';
import type { ApiError } from '../../api/client.js';
import type { Network } from '../../api/providers.js';
import type { NewThread, Thread } from '../../api/threads.js';
import { Field } from '../../components/field.js';
import { faultAt } from '../../components/post-editor.js';

/**
 * The network options of the editor (decisions.md "Network options"): who may reply to the thread
 * and whether it may be quoted, and each post's quote, poll, languages and content warning.
 * Which network takes which option is its entry in src/networks/, which the server's content
 * rules read too; the form offers what the entry takes, and the server's faults are shown at the
 * field they name. An option a network accepts and ignores is not offered on it, but one the
 * thread already holds (set through the API, or typed before the account was changed) is shown
 * with what the network does with it, so nothing is lost or said to work that does not.
 */

type ReplyControl = Thread['replyControl'];
type PostOptionsBody = Pick<NewThread['posts'][number], 'quote' | 'poll' | 'langs' | 'contentWarning'>;

/** The thread's options as the form holds them. */
export interface ThreadOptionsDraft {
  replyControl: ReplyControl;
  quotesDisabled: boolean;
}

/** One post's options as the form holds them (`poll` null: no poll; `langs` as typed). */
export interface PostOptionsDraft {
  quote: string;
  poll: string[] | null;
  /** The poll's question, on a network whose polls have one (`pollQuestion` in its entry); '' when none. */
  pollQuestion: string;
  langs: string;
  contentWarning: string;
}

const REPLY_LABELS: Record<ReplyControl, string> = {
  everyone: 'Everyone',
  following: 'Accounts you follow',
  followers: 'Your followers',
  mentioned: 'Accounts mentioned in the thread',
  nobody: 'Nobody (only you)',
};

/** What each network takes: its entry in src/networks/. */
const takes = (network: Network): NetworkOptions => NETWORKS[network].options;
const networkName = (network: Network) => NETWORKS[network].name;

/** The API paths these fields show their faults at (the editor's message shows the others). */
export const OPTION_FAULT_PATHS = /^(replyControl|quotesDisabled|posts\.\d+\.(quote|poll(\..*)?|langs(\..*)?|contentWarning))$/;

export function threadOptionsDraft(thread?: Pick<Thread, 'replyControl' | 'quotesDisabled'>): ThreadOptionsDraft {
  return { replyControl: thread?.replyControl ?? 'everyone', quotesDisabled: thread?.quotesDisabled ?? false };
}

export function postOptionsDraft(post?: Pick<Thread['posts'][number], 'quote' | 'poll' | 'langs' | 'contentWarning'>): PostOptionsDraft {
  return {
    quote: post?.quote ?? '',
    poll: post?.poll ? [...post.poll.options] : null,
    pollQuestion: post?.poll?.question ?? '',
    langs: post?.langs.join(', ') ?? '',
    contentWarning: post?.contentWarning ?? '',
  };
}

/** The thread's options as sent: all of them, so an edit sets what the form shows. */
export function threadOptionsBody(options: ThreadOptionsDraft): ThreadOptionsDraft {
  return { replyControl: options.replyControl, quotesDisabled: options.quotesDisabled };
}

/** A post's options as sent (Edit Entire Thread replaces them: an empty field clears one). */
export function postOptionsBody(options: PostOptionsDraft): PostOptionsBody {
  const langs = options.langs
    .split(/[\s,]+/)
    .map((tag) => tag.trim())
    .filter(Boolean);
  return {
    quote: options.quote.trim() || null,
    poll: options.poll
      ? { options: options.poll.map((o) => o.trim()), ...(options.pollQuestion.trim() ? { question: options.pollQuestion.trim() } : {}) }
      : null,
    langs,
    contentWarning: options.contentWarning.trim() || null,
  };
}

function hasAny(options: PostOptionsDraft): boolean {
  return options.quote !== '' || options.poll !== null || options.langs !== '' || options.contentWarning !== '';
}

/** "Who can reply" and "Disable quotes", below the posts. */
export function ThreadOptions(props: {
  network: Network;
  options: ThreadOptionsDraft;
  error: ApiError | null;
  onChange: (options: ThreadOptionsDraft) => void;
}) {
  const { network, options } = props;
  const offered = takes(network);
  // A value this network does not take stays listed (it is the thread's), marked so.
  const choices = offered.replyControls.includes(options.replyControl) ? offered.replyControls : [...offered.replyControls, options.replyControl];
  const showQuotes = offered.quotesDisabled || options.quotesDisabled;
  return (
    <fieldset class="thread-options">
      <legend>Replies and quotes</legend>
      <Field
        label="Who can reply"
        name="replyControl"
        error={faultAt(props.error, 'replyControl')}
        hint={
          offered.replyControls.length > 1
            ? `Applies to every post of the thread on ${networkName(network)}.`
            : `${networkName(network)} does not let a post limit its replies.`
        }
      >
        {(control) => (
          <select
            {...control}
            value={options.replyControl}
            onChange={(e) => props.onChange({ ...options, replyControl: e.currentTarget.value as ReplyControl })}
          >
            {choices.map((c) => (
              <option key={c} value={c}>
                {REPLY_LABELS[c]}
                {offered.replyControls.includes(c) ? '' : ` (not on ${networkName(network)})`}
              </option>
            ))}
          </select>
        )}
      </Field>
      {showQuotes && (
        <Field
          label="Disable quotes"
          name="quotesDisabled"
          class="check-field"
          error={faultAt(props.error, 'quotesDisabled')}
          hint={
            offered.quotesDisabled
              ? 'No one can quote the posts of this thread.'
              : `${networkName(network)} has no such setting: kept with the thread, but nothing is sent.`
          }
        >
          {(control) => (
            <input
              {...control}
              type="checkbox"
              checked={options.quotesDisabled}
              onChange={(e) => props.onChange({ ...options, quotesDisabled: e.currentTarget.checked })}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}

/** A post's quote, poll, languages and content warning, inside its card. */
export function PostOptions(props: {
  network: Network;
  index: number;
  options: PostOptionsDraft;
  /** Whether the post has media (a poll goes only on a text post). */
  hasMedia: boolean;
  error: ApiError | null;
  onChange: (options: PostOptionsDraft) => void;
}) {
  const { network, index, options, hasMedia } = props;
  const offered = takes(network);
  const path = `posts.${index}`;
  const n = index + 1;
  const set = (patch: Partial<PostOptionsDraft>) => props.onChange({ ...options, ...patch });
  const faulty = props.error?.errors.some((e) => OPTION_FAULT_PATHS.test(e.path) && e.path.startsWith(`${path}.`)) ?? false;
  // A network whose later posts take no poll (LinkedIn's are comments) offers it on the first only.
  const pollHere = offered.polls && !(index > 0 && offered.firstPostOnly?.includes('poll'));
  const showPoll = pollHere || options.poll !== null;
  // A field shown for a value the network ignores stays while it is being cleared.
  const [held] = useState(() => ({ quote: options.quote !== '', langs: options.langs !== '', warning: options.contentWarning !== '' }));
  const showQuote = offered.quote !== null || held.quote || options.quote !== '';
  const showLangs = offered.langs || held.langs || options.langs !== '';
  const showWarning = offered.contentWarning || held.warning || options.contentWarning !== '';
  const pollFault = faultAt(props.error, `${path}.poll`);
  // Open when the post has an option, or a fault in one, and then as the person leaves it.
  const [open, setOpen] = useState(() => hasAny(options));
  useEffect(() => {
    if (faulty) setOpen(true);
  }, [faulty]);
  const offeredNames = [
    offered.quote ? 'quote' : null,
    pollHere ? 'poll' : null,
    offered.langs ? 'languages' : null,
    offered.contentWarning ? 'content warning' : null,
  ].filter((name): name is string => name !== null);
  const summary = (offeredNames.length ? offeredNames : ['options']).join(', ').replace(/, ([^,]*)$/, ' and $1');

  return (
    <details class="post-options" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {summary[0]!.toUpperCase()}
        {summary.slice(1)} of post {n}
      </summary>
      {showQuote && (
        <Field
          label={`Post ${n} quotes`}
          name={`${path}.quote`}
          error={faultAt(props.error, `${path}.quote`)}
          hint={offered.quote ? offered.quote.hint : `${networkName(network)} has no quotes: clear it to save the thread.`}
        >
          {(control) => <input {...control} value={options.quote} spellcheck={false} onInput={(e) => set({ quote: e.currentTarget.value })} />}
        </Field>
      )}
      {showLangs && (
        <Field
          label={`Post ${n} languages`}
          name={`${path}.langs`}
          error={faultAt(props.error, `${path}.langs`)}
          hint={
            offered.langs
              ? `Up to ${MAX_LANGS} language tags, separated by commas: en, pt-BR.${offered.langs < MAX_LANGS ? ` ${networkName(network)} publishes the first.` : ''}`
              : `${networkName(network)} takes no languages: kept with the post, but not sent.`
          }
        >
          {(control) => <input {...control} value={options.langs} spellcheck={false} onInput={(e) => set({ langs: e.currentTarget.value })} />}
        </Field>
      )}
      {showWarning && (
        <Field
          label={`Post ${n} content warning`}
          name={`${path}.contentWarning`}
          error={faultAt(props.error, `${path}.contentWarning`)}
          hint={
            offered.contentWarning
              ? `Shown in place of the post until the reader opens it; 1 to ${CONTENT_WARNING_CHARS} characters.`
              : `${networkName(network)} shows no content warnings: kept with the post, but not published. Clear it to drop it.`
          }
        >
          {(control) => <input {...control} value={options.contentWarning} onInput={(e) => set({ contentWarning: e.currentTarget.value })} />}
        </Field>
      )}
      {showPoll && (
        <PollBuilder
          n={n}
          path={path}
          poll={options.poll}
          pollTaken={pollHere}
          notTakenReason={offered.polls ? `${networkName(network)} takes a poll on the first post only.` : `${networkName(network)} has no polls.`}
          question={offered.pollQuestion ?? null}
          questionText={options.pollQuestion}
          onQuestion={(pollQuestion) => set({ pollQuestion })}
          hasMedia={hasMedia}
          fault={pollFault}
          error={props.error}
          onChange={(poll) => set({ poll })}
        />
      )}
    </details>
  );
}

function PollBuilder(props: {
  n: number;
  path: string;
  poll: string[] | null;
  pollTaken: boolean;
  /** Why the post takes no poll, when it does not. */
  notTakenReason: string;
  /** The network's poll question (its entry's `pollQuestion`); null: its polls have none. */
  question: { maxChars: number } | null;
  questionText: string;
  onQuestion: (question: string) => void;
  hasMedia: boolean;
  fault: string | undefined;
  error: ApiError | null;
  onChange: (poll: string[] | null) => void;
}) {
  const { n, path, poll, hasMedia } = props;
  const reasonId = `poll-reason-${n}`;
  // The reason the poll cannot be added, or cannot stay, shown before any save.
  const reason = !props.pollTaken ? props.notTakenReason : hasMedia ? 'A poll goes only on a post without images or videos.' : null;
  if (!poll) {
    return (
      <div class="poll">
        <button type="button" disabled={reason !== null} aria-describedby={reason ? reasonId : undefined} onClick={() => props.onChange(['', ''])}>
          Add a poll to post {n}
        </button>
        {reason && (
          <p class="hint" id={reasonId}>
            {reason}
          </p>
        )}
      </div>
    );
  }
  // Faults of the options' list itself (`poll.options`) and of the poll; each option's beside it.
  const ownFault = props.error?.errors
    .filter((e) => e.path === `${path}.poll` || e.path === `${path}.poll.options`)
    .map((e) => e.message)
    .join('; ');
  return (
    <fieldset class="poll">
      <legend>Poll of post {n}</legend>
      {reason && <p class="poll-reason">{reason} Remove the poll or the media before saving.</p>}
      {(props.question || props.questionText !== '') && (
        <Field
          label={`Question of the poll of post ${n}`}
          name={`${path}.poll.question`}
          error={faultAt(props.error, `${path}.poll.question`)}
          hint={
            props.question
              ? `Required: 1 to ${props.question.maxChars} characters. ${[...props.questionText].length} / ${props.question.maxChars}`
              : 'This network shows no question: kept with the poll, but not published.'
          }
        >
          {(control) => <input {...control} value={props.questionText} onInput={(e) => props.onQuestion(e.currentTarget.value)} />}
        </Field>
      )}
      <ol class="poll-options">
        {poll.map((option, i) => (
          <li key={i}>
            <Field
              label={`Option ${i + 1}`}
              name={`${path}.poll.options.${i}`}
              error={faultAt(props.error, `${path}.poll.options.${i}`)}
              hint={`${[...option].length} / ${POLL.optionChars}`}
            >
              {(control) => (
                <input
                  {...control}
                  value={option}
                  onInput={(e) => {
                    const value = e.currentTarget.value;
                    props.onChange(poll.map((o, k) => (k === i ? value : o)));
                  }}
                />
              )}
            </Field>
            <button
              type="button"
              aria-label={`Remove option ${i + 1} of the poll of post ${n}`}
              disabled={poll.length <= POLL.minOptions}
              onClick={() => props.onChange(poll.filter((_, k) => k !== i))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      {ownFault && (
        <p class="field-error" data-field-error={`${path}.poll`}>
          {ownFault}
        </p>
      )}
      <div class="actions wrap">
        <button type="button" disabled={poll.length >= POLL.maxOptions} onClick={() => props.onChange([...poll, ''])}>
          Add an option
        </button>
        <button type="button" onClick={() => props.onChange(null)}>
          Remove the poll
        </button>
      </div>
      <p class="hint">
        {POLL.minOptions} to {POLL.maxOptions} options of 1 to {POLL.optionChars} characters; only on a post without images or videos.
      </p>
    </fieldset>
  );
}

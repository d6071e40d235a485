import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../context.js';
import { NETWORKS, type NetworkKind } from '../networks/index.js';
import { type ClaimedEmail, closeUnsentEmails, createDueDigests, digestEvents, type EmailSubject, emailQueue, emailSubjectOf } from '../repos/email.js';
import { runDue } from './claim.js';
import type { PublishDeps } from './deps.js';

/**
 * Email notifications (docs/decisions.md "Email notifications (implementation)"), sent by the
 * publisher like its other claimable work: a row of the email outbox, written with the change it
 * reports, is claimed with a lease (the claim committed before SMTP is spoken), sent with
 * nodemailer over SKEIN_SMTP_URL, and marked SENT under that lease; a failed attempt is retried
 * with backoff for 24 h, a crashed worker's row taken over when its lease runs out. Each email's
 * Message-ID comes from its row id (the event id and the recipient), the same on every attempt.
 */

const RETRY_FOR_MS = 24 * 3600_000;
const FIRST_RETRY_MS = 60_000;
const MAX_BACKOFF_MS = 3600_000;

/** 60 s doubling to at most 1 h, drawn from the upper half so emails failed together spread out. */
function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
  return Math.round(base * (0.5 + random() * 0.5));
}

/**
 * Creates the digests due now, then claims due emails and sends them one after another. Without
 * SKEIN_SMTP_URL nothing is sent: rows written meanwhile are closed as FAILED ("email is off")
 * in one statement (closeUnsentEmails) rather than kept for a later start. Returns how many
 * were claimed.
 */
export async function runDueEmails(deps: PublishDeps, limit: number): Promise<number> {
  const { ctx } = deps;
  const smtpUrl = ctx.smtpUrl;
  if (!smtpUrl) {
    await closeUnsentEmails(ctx.db, 'email is off (SKEIN_SMTP_URL is not set)', ctx.clock.now());
    return 0;
  }
  await createDueDigests(ctx.db, ctx.clock.now());
  const transport = nodemailer.createTransport(smtpUrl);
  try {
    return await runDue(deps, emailQueue, limit, (email) => send(deps, transport, email), { what: 'email', ids: (email) => ({ emailId: email.id }) });
  } finally {
    transport.close();
  }
}

async function send(deps: PublishDeps, transport: Transporter, email: ClaimedEmail): Promise<void> {
  const { ctx } = deps;
  const message = await compose(ctx, email);
  let error: string | null = null;
  let permanent = false;
  try {
    await transport.sendMail({
      from: ctx.config.email.from,
      to: email.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: messageIdOf(ctx, email),
      headers: { 'X-Skein-Notification': email.kind, ...(email.event_id ? { 'X-Skein-Event-Id': email.event_id } : {}) },
    });
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    error = err instanceof Error ? err.message : String(err);
    // 5xx: the server refused this message for good (no such mailbox, refused sender); retrying repeats the refusal.
    permanent = typeof code === 'number' && code >= 500;
  }
  const now = ctx.clock.now();
  if (error === null) {
    await emailQueue.release(ctx.db, email, deps.workerId, { status: 'SENT', sent_at: now, last_error: null }, now);
    return;
  }
  const givingUp = permanent || now.getTime() - new Date(email.created_at).getTime() >= RETRY_FOR_MS;
  ctx.logger.info({ emailId: email.id, attempt: email.attempts, error }, givingUp ? 'email not sent; giving up' : 'email not sent; will retry');
  await emailQueue.release(
    ctx.db,
    email,
    deps.workerId,
    givingUp ? { status: 'FAILED', last_error: error } : { status: 'PENDING', run_at: new Date(now.getTime() + backoffMs(email.attempts)), last_error: error },
    now,
  );
}

/** `<row id@host of PUBLIC_URL>`: the row id is the event id and the recipient's (or the digest's day), so a resend is recognisably the same message. */
function messageIdOf(ctx: AppContext, email: ClaimedEmail): string {
  return `<${email.id}@${new URL(ctx.config.http.publicUrl).hostname}>`;
}

interface Message {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function accountName(subject: EmailSubject): string {
  if (!subject.provider) return 'an account';
  const network = NETWORKS[subject.provider.kind as NetworkKind]?.name ?? subject.provider.kind;
  return `@${subject.provider.username} (${network})`;
}

function snippet(text: string | null, max = 120): string | null {
  if (!text) return null;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** When a thread is due, as `2026-12-01 12:00 UTC`, or null for none. */
function whenOf(at: unknown): string | null {
  const date = typeof at === 'string' ? new Date(at) : null;
  return date && !Number.isNaN(date.getTime()) ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : null;
}

/** An approval asked of the team's approvers, or its decision told to the writer who asked. */
function describeApproval(kind: string, data: Record<string, unknown>, name: string, text: string | null, links: { thread: string; approvals: string }) {
  const approval = (data.approval ?? {}) as { by?: string | null; note?: string | null };
  const due = whenOf(data.scheduledAt);
  const quoted = text ? `“${text}”` : '';
  if (kind === 'APPROVAL_REQUESTED') {
    return {
      headline: `A thread on ${name} waits for your approval`,
      lines: [quoted, data.askedBy ? `Asked by ${String(data.askedBy)}` : '', due ? `Due ${due}: it is not published until approved` : ''],
      // The approvals page has the buttons (the thread's page shows the approval, not the decision).
      link: links.approvals,
      action: 'Open the approvals to approve or reject it',
    };
  }
  const rejected = kind === 'THREAD_REJECTED';
  return {
    headline: `Your thread on ${name} was ${rejected ? 'rejected' : 'approved'}${approval.by ? ` by ${approval.by}` : ''}`,
    lines: [
      quoted,
      approval.note ? `Note: ${approval.note}` : '',
      rejected ? 'It is not published unless it is changed and approved.' : due ? `Due ${due}.` : '',
    ],
    link: links.thread,
    action: rejected ? 'Open the thread to change it' : 'Open the thread',
  };
}

function errorOf(data: Record<string, unknown>): string | null {
  const error = data.error as { code?: string; message?: string } | undefined;
  return error ? `${error.message ?? ''}${error.code ? ` (${error.code})` : ''}` : null;
}

/** When an expiring token runs out, as `2026-12-01 12:00 UTC`. */
function expiryOf(data: Record<string, unknown>): string {
  const at = new Date(String(data.expiresAt));
  return Number.isNaN(at.getTime()) ? 'its expiry' : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** One event as a headline, its details and where to act on it. */
async function describe(
  ctx: AppContext,
  kind: string,
  data: Record<string, unknown>,
): Promise<{ headline: string; lines: string[]; link: string; action: string }> {
  const base = ctx.config.http.publicUrl;
  const subject = await emailSubjectOf(ctx.db, data);
  const name = accountName(subject);
  const text = snippet(subject.threadText);
  const error = errorOf(data);
  const threadLink = `${base}/threads/${String(data.threadId)}`;
  switch (kind) {
    case 'THREAD_FAILED':
      return {
        headline: `A thread failed to publish on ${name}`,
        lines: [text ? `“${text}”` : '', error ? `Error: ${error}` : ''],
        link: threadLink,
        action: 'Open the thread to retry it',
      };
    case 'FOLLOW_UP_FAILED':
      return {
        headline: `A follow-up reply failed on ${name}`,
        lines: [text ? `On the thread “${text}”` : '', error ? `Error: ${error}` : ''],
        link: threadLink,
        action: 'Open the thread',
      };
    case 'PROVIDER_EXPIRING':
      return {
        headline: `${name} needs reconnecting by ${expiryOf(data)}: its sign-in runs out then`,
        lines: ['The network gives no way to renew it. Reconnect the account before then, or threads due on it after that will fail.'],
        link: `${base}/accounts`,
        action: 'Reconnect it',
      };
    case 'PROVIDER_EXPIRED':
      return {
        headline: `${name} needs reconnecting: its sign-in expired`,
        lines: ['Threads due on it fail until it is reconnected.'],
        link: `${base}/accounts`,
        action: 'Reconnect it',
      };
    case 'APPROVAL_REQUESTED':
    case 'THREAD_REJECTED':
    case 'THREAD_APPROVED':
      return describeApproval(kind, data, name, text, { thread: threadLink, approvals: `${base}/approvals` });
    case 'COMMENT_MENTION': {
      const comment = (data.comment ?? {}) as { author?: string; text?: string };
      return {
        headline: `${comment.author ?? 'Someone'} mentioned you in a comment on a thread on ${name}`,
        lines: [comment.text ? `“${snippet(comment.text, 300)}”` : '', text ? `On the thread “${text}”` : ''],
        link: threadLink,
        action: 'Open the thread',
      };
    }
    default:
      return {
        headline: `${name} was disconnected`,
        lines: ['Threads due on it fail until it is connected again.'],
        link: `${base}/accounts`,
        action: 'Open the accounts',
      };
  }
}

async function compose(ctx: AppContext, email: ClaimedEmail): Promise<Message> {
  if (email.kind === 'DIGEST') return composeDigest(ctx, email);
  const d = await describe(ctx, email.kind, email.data);
  const lines = d.lines.filter(Boolean);
  return {
    subject: `Skein: ${d.headline}`,
    text: `${d.headline}\n\n${lines.map((l) => `${l}\n`).join('')}\n${d.action}: ${d.link}\n\n${footer(ctx)}\n`,
    html: `<p><strong>${escapeHtml(d.headline)}</strong></p>${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(d.link)}">${escapeHtml(d.action)}</a></p><p style="color:#666">${escapeHtml(footer(ctx))}</p>`,
  };
}

function footer(ctx: AppContext): string {
  return `Sent by Skein. Choose which emails you get in Settings: ${ctx.config.http.publicUrl}/settings`;
}

async function composeDigest(ctx: AppContext, email: ClaimedEmail): Promise<Message> {
  const day = String(email.data.day);
  const summary = email.data.summary as { published: number; failed: number; expired: number } | null;
  const events = await digestEvents(ctx.db, email.id);
  const described = await Promise.all(events.map((e) => describe(ctx, e.kind, e.data)));
  const heading = `Your Skein day, up to 08:00 on ${day}`;
  const counts = summary
    ? [`Published: ${summary.published} thread${summary.published === 1 ? '' : 's'}`, `Failed: ${summary.failed}`, `Accounts expired: ${summary.expired}`]
    : [];
  const text = [
    heading,
    '',
    ...counts,
    ...(counts.length ? [''] : []),
    ...described.flatMap((d) => [`- ${d.headline}`, ...d.lines.filter(Boolean).map((l) => `  ${l}`), `  ${d.action}: ${d.link}`]),
    '',
    footer(ctx),
    '',
  ].join('\n');
  const html = [
    `<p><strong>${escapeHtml(heading)}</strong></p>`,
    counts.length ? `<ul>${counts.map((c) => `<li>${escapeHtml(c)}</li>`).join('')}</ul>` : '',
    described.length
      ? `<ul>${described
          .map(
            (d) =>
              `<li><strong>${escapeHtml(d.headline)}</strong>${d.lines
                .filter(Boolean)
                .map((l) => `<br>${escapeHtml(l)}`)
                .join('')}<br><a href="${escapeHtml(d.link)}">${escapeHtml(d.action)}</a></li>`,
          )
          .join('')}</ul>`
      : '',
    `<p style="color:#666">${escapeHtml(footer(ctx))}</p>`,
  ].join('');
  return { subject: `Skein: your day, ${day}`, text, html };
}

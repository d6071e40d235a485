/**
 * The rules the fake LinkedIn API enforces, written from ../shared/reference/linkedin-api.md as
 * pure functions (the little text format §3.2, errors §9), so the server file only does
 * transport and state.
 */

/** A LinkedIn error answer with its HTTP status (§9). */
export class LinkedInFault extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message ?? body.error_description ?? status));
  }
}

export const restError = (status: number, code: string, message: string, serviceErrorCode?: number) =>
  new LinkedInFault(status, { status, ...(serviceErrorCode === undefined ? {} : { serviceErrorCode }), code, message });
export const fieldError = (code: string, field: string, message: string) =>
  new LinkedInFault(400, {
    status: 400,
    code,
    message,
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    errorDetails: { inputErrors: [{ description: message, input: { inputPath: { fieldPath: field } }, code }] },
  });
export const notFound = (what: string) => restError(404, 'NOT_FOUND', `${what} not found`);
export const accessDenied = (resource: string) => restError(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource}`, 100);
export const oauthError = (status: number, error: string, description: string) => new LinkedInFault(status, { error, error_description: description });

/** The exact body LinkedIn answers a duplicate post with (§9, verbatim but for the URN). */
export function duplicateFault(existing: string): LinkedInFault {
  return new LinkedInFault(422, {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${existing}`,
    errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
    status: 422,
  });
}

const RESERVED = new Set(['|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '\\', '*', '_', '~']);
const HASHTAG = /#([\p{L}\p{N}]+)/uy;
const HASHTAG_TEMPLATE = /\{hashtag\|\\#\|([^}|]+)\}/y;
const MENTION = /@\[([^\]]+)\]\((urn:li:(?:person|organization):[^)]+)\)/y;

export interface Rendered {
  /** What readers see. */
  text: string;
  hashtags: string[];
  mentions: string[];
  /** Whether an unescaped reserved character cut the text short (LinkedIn still answers 201, §3.2). */
  cut: boolean;
}

/**
 * A commentary as LinkedIn shows it: escapes undone, hashtags and mentions resolved, and the
 * text silently cut at the first reserved character that is not escaped and starts no element.
 */
export function renderLittleText(raw: string): Rendered {
  let text = '';
  const hashtags: string[] = [];
  const mentions: string[] = [];
  let i = 0;
  const at = (pattern: RegExp) => {
    pattern.lastIndex = i;
    return pattern.exec(raw);
  };
  while (i < raw.length) {
    const char = raw[i]!;
    if (char === '\\' && RESERVED.has(raw[i + 1] ?? '')) {
      text += raw[i + 1];
      i += 2;
      continue;
    }
    if (!RESERVED.has(char)) {
      text += char;
      i += 1;
      continue;
    }
    const element = char === '#' ? at(HASHTAG) : char === '{' ? at(HASHTAG_TEMPLATE) : char === '@' ? at(MENTION) : null;
    if (!element) return { text, hashtags, mentions, cut: true };
    if (char === '@') {
      text += element[1];
      mentions.push(element[2]!);
    } else {
      text += `#${element[1]}`;
      hashtags.push(element[1]!);
    }
    i += element[0].length;
  }
  return { text, hashtags, mentions, cut: false };
}

/** A hashtag written back as LinkedIn's template, as GET may answer it (§3.2). */
export function withHashtagTemplates(raw: string): string {
  return raw.replace(/(^|[^\\])#([\p{L}\p{N}]+)/gu, (_m, before: string, tag: string) => `${before}{hashtag|\\#|${tag}}`);
}

/** The UTC day of an instant (the rate limits reset at 00:00 UTC, §8). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

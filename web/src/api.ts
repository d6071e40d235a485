/**
 * The API client: same-origin fetches signed in by the session cookie, with the session's CSRF
 * token on every state change. Errors arrive as problem+json and become ApiError, whose
 * `errors[].path` name the field each fault belongs to.
 */

export interface FieldFault {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldFault[] = [],
  ) {
    super(detail);
  }

  /** The message for one field, if the API named it. */
  at(path: string): string | undefined {
    return this.errors.find((e) => e.path === path)?.message;
  }
}

export interface Account {
  id: string;
  email: string;
  timezone: string;
  activeTeamId: string | null;
}

export interface Session {
  account: Account;
  csrfToken: string | null;
}

export interface ApiKey {
  id: string;
  name: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface Team {
  id: string;
  name: string;
  role: 'owner' | 'member';
}

export interface AutoPlug {
  enabled: boolean;
  text: string;
  minLikes: number;
}

/** What a change may add to its request. */
interface SendOptions {
  /** The ETag the change is based on: a 412 (`PRECONDITION_FAILED`) if the resource changed since. */
  ifMatch?: string | null;
}

export interface Api {
  get<T>(path: string): Promise<T>;
  /** A GET with the answer's ETag (null when it has none). */
  read<T>(path: string): Promise<{ body: T; etag: string | null }>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, options?: SendOptions): Promise<T>;
  setCsrf(token: string | null): void;
}

/** The API's answer to a change whose If-Match the resource no longer meets. */
export function isChangedElsewhere(error: ApiError | null): boolean {
  return error?.status === 412 && error.code === 'PRECONDITION_FAILED';
}

/** `onSignedOut` runs when the API answers 401 to a signed-in call (the session ended). */
export function createApi(onSignedOut: () => void): Api {
  let csrf: string | null = null;
  async function call<T>(method: string, path: string, body?: unknown, options: SendOptions = {}): Promise<{ body: T; etag: string | null }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    let res: Response;
    try {
      res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'NETWORK', 'Skein could not be reached. Check the connection and try again.');
    }
    const text = await res.text();
    const json = text ? safeJson(text) : null;
    if (res.ok) return { body: json as T, etag: res.headers.get('etag') };
    const problem = (json ?? {}) as { code?: string; detail?: string; errors?: FieldFault[] };
    const error = new ApiError(res.status, problem.code ?? `HTTP_${res.status}`, problem.detail ?? res.statusText, problem.errors ?? []);
    if (res.status === 401 && error.code === 'UNAUTHENTICATED' && !path.startsWith('/api/v1/auth/')) onSignedOut();
    throw error;
  }
  return {
    async get<T>(path: string) {
      return (await call<T>('GET', path)).body;
    },
    read: (path) => call('GET', path),
    async send<T>(method: string, path: string, body?: unknown, options?: SendOptions) {
      return (await call<T>(method, path, body ?? {}, options)).body;
    },
    setCsrf: (token) => {
      csrf = token;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

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

export interface Api {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  setCsrf(token: string | null): void;
}

/** `onSignedOut` runs when the API answers 401 to a signed-in call (the session ended). */
export function createApi(onSignedOut: () => void): Api {
  let csrf: string | null = null;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    let res: Response;
    try {
      res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? null : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'NETWORK', 'Skein could not be reached. Check the connection and try again.');
    }
    const text = await res.text();
    const json = text ? safeJson(text) : null;
    if (res.ok) return json as T;
    const problem = (json ?? {}) as { code?: string; detail?: string; errors?: FieldFault[] };
    const error = new ApiError(res.status, problem.code ?? `HTTP_${res.status}`, problem.detail ?? res.statusText, problem.errors ?? []);
    if (res.status === 401 && error.code === 'UNAUTHENTICATED' && !path.startsWith('/api/v1/auth/')) onSignedOut();
    throw error;
  }
  return {
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body ?? {}),
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

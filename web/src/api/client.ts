import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './openapi.js';

/**
 * The client core: same-origin fetches (openapi-fetch over the paths of the generated
 * openapi.d.ts, so a path, its parameters, its body and its answer are all the server's types)
 * signed in by the session cookie, with the session's CSRF token on every state change. Errors
 * arrive as problem+json and become ApiError, whose `errors[].path` name the field each fault
 * belongs to. The resource modules (threads.ts, providers.ts…) are the only callers.
 */

export type Client = ReturnType<typeof createClient<paths>>;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** The JSON body of an operation's success answer (200 or 201). */
export type Answer<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201>]> : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

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

/** The API's answer to a change whose If-Match the resource no longer meets. */
export function isChangedElsewhere(error: ApiError | null): boolean {
  return error?.status === 412 && error.code === 'PRECONDITION_FAILED';
}

/** The typed client the resource modules call (their answers go through `ok` or `answer`), and the CSRF token it sends. */
interface Transport {
  client: Client;
  setCsrf(token: string | null): void;
  /** What a request made outside the typed client (an upload, for its progress) must do the same. */
  session: Session;
}

/** The session's part of a request the typed client does not make. */
export interface Session {
  csrf(): string | null;
  onSignedOut(): void;
}

/** `onSignedOut` runs when the API answers 401 to a signed-in call (the session ended). */
export function createTransport(onSignedOut: () => void): Transport {
  let csrf: string | null = null;
  const client = createClient<paths>({ credentials: 'same-origin', headers: { accept: 'application/json' } });
  const session: Middleware = {
    onRequest({ request }) {
      if (csrf && request.method !== 'GET') request.headers.set('x-csrf-token', csrf);
      return request;
    },
    async onResponse({ response, schemaPath }) {
      if (response.status !== 401 || schemaPath.startsWith('/api/v1/auth/')) return;
      const problem = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null;
      if (problem?.code === 'UNAUTHENTICATED') onSignedOut();
    },
  };
  client.use(session);
  return {
    client,
    setCsrf: (token) => {
      csrf = token;
    },
    session: { csrf: () => csrf, onSignedOut },
  };
}

/** The ApiError of a failed answer: its problem+json body (parsed, if any), else the status line. */
export function problemError(status: number, statusText: string, body: unknown): ApiError {
  const problem = (body && typeof body === 'object' ? body : {}) as { code?: string; detail?: string; errors?: FieldFault[] };
  return new ApiError(status, problem.code ?? `HTTP_${status}`, problem.detail ?? statusText, problem.errors ?? []);
}

export const NETWORK_ERROR_DETAIL = 'Skein could not be reached. Check the connection and try again.';

type Fetched<D> = { data?: D; error?: unknown; response: Response };

/** The answer's body and its ETag (null when it has none), or the API's error as an ApiError. */
export async function answer<D>(request: Promise<Fetched<D>>): Promise<{ body: D; etag: string | null }> {
  let fetched: Fetched<D>;
  try {
    fetched = await request;
  } catch {
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_DETAIL);
  }
  const { data, error, response } = fetched;
  if (response.ok) return { body: data as D, etag: response.headers.get('etag') };
  throw problemError(response.status, response.statusText, error);
}

/** The answer's body, or the API's error as an ApiError. */
export async function ok<D>(request: Promise<Fetched<D>>): Promise<D> {
  return (await answer(request)).body;
}

/** The If-Match header of a change based on what was read (a 412 if the resource changed since). */
export function ifMatch(etag: string | null): { 'if-match'?: string } {
  return etag ? { 'if-match': etag } : {};
}

import { type Answer, ApiError, type Client, NETWORK_ERROR_DETAIL, ok, problemError, type Session } from './client.js';

/** A workspace's uploads: images and videos a post's `media[].url` may name by their `url`. */

/** An upload as the API describes it (`url`, `type`, `width`…). */
export type Media = Answer<'/api/v1/media', 'post'>;

const UPLOAD_PATH = '/api/v1/media';

export function mediaApi(client: Client, session: Session) {
  return {
    /**
     * Uploads one file (multipart, part `file`), reporting the share of its bytes sent so far
     * (0 to 1) to `onProgress`. fetch reports no upload progress, hence XMLHttpRequest, with the
     * typed client's conventions by hand: the CSRF header, problem+json → ApiError, 401 → signed
     * out. An abort (`signal`, e.g. the item removed) rejects with an AbortError DOMException.
     */
    upload: (file: File, options: { teamId?: string; onProgress?: (sent: number) => void; signal?: AbortSignal } = {}): Promise<Media> =>
      new Promise<Media>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        const query = options.teamId ? `?${new URLSearchParams({ teamId: options.teamId })}` : '';
        xhr.open('POST', `${UPLOAD_PATH}${query}`);
        xhr.withCredentials = true;
        xhr.responseType = 'text';
        xhr.setRequestHeader('accept', 'application/json');
        const csrf = session.csrf();
        if (csrf) xhr.setRequestHeader('x-csrf-token', csrf);
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable && e.total > 0) options.onProgress?.(e.loaded / e.total);
        };
        xhr.onload = () => {
          let body: unknown = null;
          try {
            body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
          } catch {
            // Not JSON (a proxy's HTML error page): the status line says what happened.
          }
          if (xhr.status >= 200 && xhr.status < 300) {
            resolve(body as Media);
            return;
          }
          const error = problemError(xhr.status, xhr.statusText, body);
          if (error.status === 401 && error.code === 'UNAUTHENTICATED') session.onSignedOut();
          reject(error);
        };
        xhr.onerror = () => reject(new ApiError(0, 'NETWORK', NETWORK_ERROR_DETAIL));
        xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
        if (options.signal?.aborted) {
          reject(new DOMException('The upload was cancelled', 'AbortError'));
          return;
        }
        options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        const form = new FormData();
        form.append('file', file, file.name);
        xhr.send(form);
      }),
    /** The workspace's uploads (a team id or "personal"; omitted: the active one), newest first. */
    list: async (teamId?: string) => (await ok(client.GET('/api/v1/media', { params: { query: teamId ? { teamId } : {} } }))).media,
    /** 409 MEDIA_IN_USE while a thread not yet published uses it. */
    delete: (id: string) => ok(client.DELETE('/api/v1/media/{id}', { params: { path: { id } } })),
  };
}

import type { PostAnalytics, Thread } from '../api/threads.js';
import { networkHref } from '../network-links.js';
import { formatInZone } from '../time.js';

const METRICS: Array<keyof Omit<PostAnalytics, 'fetchedAt'>> = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];

/** A thread that is published, publishing or failed: read-only, with permalinks and analytics. */
export function PublishedThread({ thread, zone }: { thread: Thread; zone: string }) {
  return (
    <ol class="posts">
      {thread.posts.map((post, i) => (
        <li key={post.id} class="card post-readonly">
          <div class="post-head">
            <h3>Post {i + 1}</h3>
            <span class={`badge status-${post.status.toLowerCase()}`}>{post.status}</span>
          </div>
          <p class="post-text">{post.content}</p>
          {post.postMedia.length > 0 && (
            <ul class="links">
              {post.postMedia.map((m) => (
                <li key={m.url}>
                  {m.url} {m.altText ? `(alt: ${m.altText})` : '(no alt text)'}
                </li>
              ))}
            </ul>
          )}
          {post.publishedAt && <p class="hint">Published {formatInZone(post.publishedAt, zone)}</p>}
          {networkHref(post.permaLink) && (
            <p>
              <a href={networkHref(post.permaLink)!} target="_blank" rel="noopener noreferrer">
                View on the network
              </a>
            </p>
          )}
          {post.error && (
            <p class="field-error">
              {post.error.message} ({post.error.code})
            </p>
          )}
          {post.analytics && (
            <dl class="metrics">
              {METRICS.filter((m) => post.analytics?.[m] !== null).map((m) => (
                <div key={m}>
                  <dt>{m}</dt>
                  <dd>{post.analytics?.[m]}</dd>
                </div>
              ))}
            </dl>
          )}
        </li>
      ))}
    </ol>
  );
}

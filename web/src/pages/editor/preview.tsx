import type { ComponentChildren } from 'preact';
import type { Network } from '../../api/providers.js';
import { NETWORK_NAMES } from '../../providers.js';
import { laterPostsAre, networkOptions } from '../../text-rules.js';
import type { Chain, Part } from './chains.js';

/**
 * A live preview of each account's thread as its network shows it: the reply chain (on LinkedIn a
 * post and its comments), links and
 * mentions, a content warning (Mastodon) or a spoiler (Threads) behind a reveal, the image grid
 * with alt-text badges. A sketch of the networks' look, not a copy: what matters is what a reader
 * sees first and in what order.
 */
export function ChainPreviews({ chains }: { chains: Chain[] }) {
  return (
    <aside class="previews" aria-label="Previews">
      <h2>Preview</h2>
      {chains.length === 0 && <p class="hint">Choose an account to see its thread here.</p>}
      {chains.map((chain) => (
        <ChainPreview key={chain.provider.id} chain={chain} />
      ))}
    </aside>
  );
}

/** A chain to preview: an account (its id, network and name) and its posts; the editor's chains, a waiting thread on the approvals page, or a review link's thread. */
export type PreviewChain = { provider: Pick<Chain['provider'], 'id' | 'provider' | 'username'>; parts: Part[] };

export function ChainPreview({ chain }: { chain: PreviewChain }) {
  const { provider, parts } = chain;
  const network = provider.provider;
  const name = `${NETWORK_NAMES[network]} · @${provider.username}`;
  return (
    <section class={`chain-preview preview-${network.toLowerCase()}`} aria-label={`Preview on ${name}`} data-preview={provider.id}>
      <h3>{name}</h3>
      <ol class="preview-chain">
        {parts.map((part, i) => (
          <li key={`${part.postKey}-${part.k}`} class="preview-post" aria-label={`Post ${i + 1} of ${parts.length}`}>
            <p class="preview-author">
              @{provider.username}
              {parts.length > 1 && (
                <span class="hint">
                  {' '}
                  · {i + 1}/{parts.length}
                </span>
              )}
              {i > 0 && <span class="hint"> · {laterPostsAre(network)}</span>}
            </p>
            <Hidden network={network} warning={part.warning}>
              <p class="preview-text">{richText(part.text)}</p>
              <MediaGrid part={part} />
            </Hidden>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A post behind its warning, as the network hides it (one without warnings or spoilers, Bluesky: the post as is). */
function Hidden({ network, warning, children }: { network: Network; warning: string; children: ComponentChildren }) {
  const { contentWarning, spoilers } = networkOptions(network);
  if (!warning || !(contentWarning || spoilers)) return <>{children}</>;
  return (
    <details class="preview-warning">
      <summary>{contentWarning ? `${warning} · Show more` : 'Spoiler · Reveal'}</summary>
      {children}
    </details>
  );
}

const RICH = /(https?:\/\/[^\s<>"]+)|((?<![\w@])@[\w.-]+(?:@[\w-]+(?:\.[\w-]+)+)?)|((?<!\w)#\w+)/g;

/** The text with its links as links and its mentions and hashtags marked, as the networks show them. */
function richText(text: string) {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(RICH)) {
    out.push(text.slice(last, m.index));
    const [whole, link] = m;
    if (link) {
      out.push(
        <a href={link} target="_blank" rel="noopener noreferrer">
          {link}
        </a>,
      );
    } else out.push(<span class="preview-tag">{whole}</span>);
    last = m.index + whole.length;
  }
  out.push(text.slice(last));
  return out;
}

function MediaGrid({ part }: { part: Part }) {
  const items = part.media.filter((m) => m.url.trim() && !m.error);
  if (!items.length) return null;
  return (
    <ul class={`preview-media preview-media-${Math.min(items.length, 4)}`} aria-label="Images and videos">
      {items.map((m, j) => (
        <li key={m.key}>
          {m.type === 'IMAGE' ? (
            <img src={m.url} alt={m.altText || `Image ${j + 1}, no alt text`} />
          ) : (
            <span class="media-placeholder" role="img" aria-label={m.altText || `Video ${j + 1}, no alt text`}>
              ▶
            </span>
          )}
          {m.altText.trim() && (
            <span class="alt-badge" title={m.altText}>
              ALT
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

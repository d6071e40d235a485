/** The shapes of threads, providers, tags, slots and follow-ups as the API answers them (docs/api.md). */

type Status = 'READY' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';

export interface Provider {
  id: string;
  provider: 'THREADS' | 'BLUESKY';
  providerUserId: string;
  username: string;
  teamId: string | null;
  status: 'ACTIVE' | 'EXPIRED' | 'REVOKED';
}

export interface SpoilerRange {
  offset: number;
  length: number;
}

interface PostMedia {
  id?: string;
  url: string;
  altText: string | null;
}

export interface Analytics {
  views: number | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  quotes: number | null;
  shares: number | null;
  fetchedAt: string;
}

interface Post {
  id: string;
  content: string;
  postOrder: number;
  topic: string | null;
  postMedia: PostMedia[];
  spoilerRanges: SpoilerRange[];
  isSpoilerMedia: boolean;
  status: Status;
  publishedAt: string | null;
  permaLink: string | null;
  autoRepostDelay: string[];
  analytics: Analytics | null;
  error: { code: string; message: string } | null;
}

export interface Thread {
  threadId: string;
  scheduledAt: string | null;
  provider: 'THREADS' | 'BLUESKY';
  providerUserId: string;
  status: Status;
  posts: Post[];
}

export interface Draft {
  threadId: string;
  provider: 'THREADS' | 'BLUESKY';
  providerUserId: string;
  createdAt: string;
  posts: Array<Pick<Post, 'id' | 'content' | 'postOrder'>>;
}

export interface Tag {
  id: string;
  name: string;
  color: string;
}

export interface FollowUp {
  id: string;
  text: string;
  delayMinutes: number;
  status: 'PENDING' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';
  dueAt: string | null;
  permaLink: string | null;
  error: { code: string; message: string } | null;
}

/** The provider a thread belongs to (a thread names its network account, not the provider id). */
export function providerOf(thread: Pick<Thread, 'provider' | 'providerUserId'>, providers: Provider[]): Provider | undefined {
  return providers.find((p) => p.provider === thread.provider && p.providerUserId === thread.providerUserId);
}

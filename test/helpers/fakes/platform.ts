import type { Analytics, Platform, PlatformAccount, PostToPublish, PublishedRef, PublishInput } from '../../../src/networks/platform.js';
import { PublishError } from '../../../src/networks/platform.js';

export interface FakePublished {
  postId: string;
  networkPostId: string;
  text: string;
  replyTo: string | null;
  /** The network id of the reply's thread root (null for a top-level post). */
  replyRoot: string | null;
  account: string;
}

export type FollowUpFault = PublishError | Error | { dropResponse: true };

/**
 * An in-memory network with the same exactly-once contract as the real clients: a post id that
 * was published once is reported as published again, never posted twice. Faults can be queued.
 */
export class FakePlatform implements Platform {
  readonly kind = 'THREADS' as const;
  readonly published: FakePublished[] = [];
  readonly calls: string[] = [];
  /** Errors thrown by the next publishPost calls, in order. */
  readonly faults: Array<PublishError | Error | { dropResponse: true }> = [];
  #seq = 1;
  /** Called before each publish, to interleave other work (edits, deletes) in tests. */
  beforePublish: ((post: PostToPublish) => Promise<void>) | null = null;
  /** Network ids of the posts reposted; reposting one twice counts once, as on the networks. */
  readonly reposted: string[] = [];
  /** Every repost call by network id, repeats included. */
  readonly repostCalls: string[] = [];
  /** Every fetchAnalytics call by network id. */
  readonly analyticsCalls: string[] = [];
  /** Faults of the next repost calls, in order (`dropResponse`: reposted, then the answer is lost). */
  readonly repostFaults: FollowUpFault[] = [];
  /** Faults of the next fetchAnalytics calls, in order. */
  readonly analyticsFaults: FollowUpFault[] = [];
  /** Counts fetchAnalytics answers; when null, the fixed counts below. */
  analyticsOf: ((ref: PublishedRef) => Analytics) | null = null;
  /** Every fetchFollowers call by network user id. */
  readonly followersCalls: string[] = [];
  /** Faults of the next fetchFollowers calls, in order. */
  readonly followersFaults: FollowUpFault[] = [];
  /** Follower count answered for each network user id (0 when absent). */
  readonly followers = new Map<string, number>();

  /** Each publishPost answers after this long, as a network would. */
  delayMs = 0;
  /** publishPost calls under way now, by account, and the most ever under way at once. */
  readonly inFlight = new Map<string, number>();
  maxInFlight = 0;
  /** The most publishPost calls ever under way at once for one account. */
  maxInFlightPerAccount = 0;

  async publishPost(input: PublishInput): Promise<PublishedRef> {
    const account = input.account.providerUserId;
    const mine = (this.inFlight.get(account) ?? 0) + 1;
    this.inFlight.set(account, mine);
    this.maxInFlightPerAccount = Math.max(this.maxInFlightPerAccount, mine);
    this.maxInFlight = Math.max(
      this.maxInFlight,
      [...this.inFlight.values()].reduce((a, b) => a + b, 0),
    );
    try {
      return await this.#publish(input);
    } finally {
      this.inFlight.set(account, this.inFlight.get(account)! - 1);
    }
  }

  async #publish(input: PublishInput): Promise<PublishedRef> {
    const { post, replyTo } = input;
    this.calls.push(post.id);
    await this.beforePublish?.(post);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const existing = this.published.find((p) => p.postId === post.id);
    if (existing) return { networkPostId: existing.networkPostId, cid: null, permalink: `https://fake.example/p/${existing.networkPostId}` };
    const fault = this.faults.shift();
    if (fault instanceof Error) throw fault;
    const networkPostId = String(this.#seq++);
    this.published.push({
      postId: post.id,
      networkPostId,
      text: post.text,
      replyTo: replyTo?.parent.networkPostId ?? null,
      replyRoot: replyTo?.root.networkPostId ?? null,
      account: input.account.providerUserId,
    });
    if (fault && 'dropResponse' in fault) throw new PublishError('transient', 'TIMEOUT', 'response lost', { outcomeUnknown: true });
    return { networkPostId, cid: null, permalink: `https://fake.example/p/${networkPostId}` };
  }

  async repost(_account: PlatformAccount, ref: PublishedRef): Promise<void> {
    this.repostCalls.push(ref.networkPostId);
    const fault = this.repostFaults.shift();
    if (fault instanceof Error) throw fault;
    if (!this.reposted.includes(ref.networkPostId)) this.reposted.push(ref.networkPostId);
    if (fault) throw new PublishError('transient', 'TIMEOUT', 'response lost', { outcomeUnknown: true });
  }

  async lookUpPermalink(_account: PlatformAccount, ref: PublishedRef): Promise<string | null> {
    return `https://fake.example/p/${ref.networkPostId}`;
  }

  async fetchAnalytics(_account: PlatformAccount, ref: PublishedRef): Promise<Analytics> {
    this.analyticsCalls.push(ref.networkPostId);
    const fault = this.analyticsFaults.shift();
    if (fault instanceof Error) throw fault;
    if (fault) throw new PublishError('transient', 'TIMEOUT', 'response lost', { outcomeUnknown: true });
    return this.analyticsOf?.(ref) ?? { views: 1, likes: 2, replies: 0, reposts: 0, quotes: 0, shares: null };
  }

  async fetchFollowers(account: PlatformAccount): Promise<number> {
    this.followersCalls.push(account.providerUserId);
    const fault = this.followersFaults.shift();
    if (fault instanceof Error) throw fault;
    if (fault) throw new PublishError('transient', 'TIMEOUT', 'response lost', { outcomeUnknown: true });
    return this.followers.get(account.providerUserId) ?? 0;
  }
}

/**
 * Holds the first matching network call until a second matching one is under way (or a guard of
 * 30 s passes), then lets `then` see every call as `beforePublish` would. So the calls overlap
 * whenever the publisher runs them at once, however fast or slow the machine: with a plain delay,
 * whether the next call reached the network while the first was still there depended on the speed
 * of the database work in between. (A publisher that never overlaps them fails the test's check
 * of `maxInFlight` after the guard, instead of hanging.)
 */
export function overlapFirstTwo(
  fake: FakePlatform,
  then: (post: PostToPublish) => Promise<void> = async () => {},
  matches: (post: PostToPublish) => boolean = () => true,
): void {
  let calls = 0;
  let release = () => {};
  const second = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, 30_000).unref();
  });
  fake.beforePublish = async (post) => {
    if (matches(post)) {
      calls++;
      if (calls === 1) await second;
      else if (calls === 2) release();
    }
    await then(post);
  };
}

/**
 * The fake X API in a process of its own, for the publisher row's X accounts (as
 * bench/graph-api-process.ts is for Threads): its CPU is then its own. Started by
 * bench/publisher.ts with fork(); the options come as JSON in argv[2]. Messages: `{ id, op:
 * 'account', name }` (an account of the fake and its token pair) or `{ id, op: 'advance' }` (a
 * new run: the recorded requests are dropped), each answered `{ id, result }`. The first message
 * sent is `{ url }`. Its clock is the system's and is never moved: a moved clock would expire the
 * two-hour access token the accounts share; the windows and the 24-hour cap are raised to fit
 * every run instead.
 */
import { FakeXApi } from '../test/helpers/fakes/x-api.js';

interface Request {
  id: number;
  op: 'account' | 'advance';
  name?: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as { latencyMs: number; postQuota: number };
const fake = await FakeXApi.start({
  clientSecret: null,
  latencyMs: options.latencyMs,
  userDailyPosts: options.postQuota,
  windowLimits: { 'tweets.create': options.postQuota, 'users.me': options.postQuota, 'users.tweets': options.postQuota, 'tweets.lookup': options.postQuota },
});
const send = (message: unknown) => process.send?.(message);
process.on('message', (message: Request) => {
  if (message.op === 'account') send({ id: message.id, result: fake.createAccount(message.name) });
  else {
    fake.requests.length = 0;
    send({ id: message.id, result: null });
  }
});
process.on('disconnect', () => {
  void fake.close().then(() => process.exit(0));
});
send({ url: fake.url });

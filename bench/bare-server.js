// A second ceiling, for the API rows on PostgreSQL: a bare Fastify app whose handlers do the
// least database work each Skein row implies (no auth, no rate limit, no validation, no views),
// run by `npm run bench` as its own process on the bench's PostgreSQL with pg's pool (10
// connections, as Skein's) and named statements. Skein's rows are compared with these too, so
// what the machine allows a request that touches PostgreSQL is measured, not assumed.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const DAY = new Date(Date.now() + 2 * 86_400_000);

async function setUp() {
  for (const statement of [
    'CREATE TABLE bare_threads (id text PRIMARY KEY, provider_id text NOT NULL, status text NOT NULL, scheduled_at timestamptz)',
    'CREATE INDEX bare_threads_at ON bare_threads (scheduled_at)',
    `CREATE TABLE bare_posts (id text PRIMARY KEY, thread_id text NOT NULL REFERENCES bare_threads (id), post_order int NOT NULL,
       content text NOT NULL, status text NOT NULL, published_at timestamptz, permalink text)`,
    'CREATE INDEX bare_posts_thread ON bare_posts (thread_id, post_order)',
  ]) {
    await pool.query(statement);
  }
  for (let i = 0; i < 21; i++) await insertThread(`t${i}`, new Date(DAY.getTime() + i * 120_000));
}

async function insertThread(id, at) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query({ name: 'ins-thread', text: `INSERT INTO bare_threads VALUES ($1, 'p1', 'READY', $2)`, values: [id, at] });
    await client.query({
      name: 'ins-posts',
      text: `INSERT INTO bare_posts (id, thread_id, post_order, content, status) VALUES
               ($1 || '-0', $1, 0, $2, 'READY'), ($1 || '-1', $1, 1, $3, 'READY'), ($1 || '-2', $1, 2, $4, 'READY')`,
      values: [id, `${id}: first post`, `${id}: second post`, `${id}: third post`],
    });
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

const JOIN = `SELECT t.id, t.provider_id, t.status, t.scheduled_at, p.id AS post_id, p.post_order, p.content, p.status AS post_status, p.published_at, p.permalink
              FROM bare_threads AS t JOIN bare_posts AS p ON p.thread_id = t.id`;

function threadsOf(rows) {
  const byId = new Map();
  for (const r of rows) {
    let thread = byId.get(r.id);
    if (!thread) {
      thread = { threadId: r.id, providerId: r.provider_id, status: r.status, scheduledAt: r.scheduled_at, posts: [] };
      byId.set(r.id, thread);
    }
    thread.posts.push({
      id: r.post_id,
      postOrder: r.post_order,
      content: r.content,
      status: r.post_status,
      publishedAt: r.published_at,
      permaLink: r.permalink,
    });
  }
  return [...byId.values()];
}

await setUp();
const app = Fastify({ logger: false });
let serial = 0;
app.get('/read', async () => {
  const { rows } = await pool.query({ name: 'read', text: `${JOIN} WHERE t.id = $1 ORDER BY p.post_order`, values: ['t20'] });
  return { thread: threadsOf(rows)[0] };
});
app.get('/range', async () => {
  const { rows } = await pool.query({
    name: 'range',
    text: `${JOIN} WHERE t.scheduled_at >= $1 AND t.scheduled_at < $2 ORDER BY t.scheduled_at, t.id, p.post_order`,
    values: [DAY, new Date(DAY.getTime() + 3_600_000)],
  });
  const threads = threadsOf(rows);
  return { threads, count: threads.length };
});
app.post('/write', async (_req, reply) => {
  const id = `w${process.pid}-${serial++}`;
  await insertThread(id, new Date(DAY.getTime() + 30 * 86_400_000));
  return reply.code(201).send({ threadId: id, postCount: 3 });
});
app.get('/readyz', async () => ({ ready: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);

import { Type } from '@sinclair/typebox';
import { Id, NullableIsoDateTime, TeamIdQuery } from './common.js';
import { CreatePostBody } from './threads.js';

export const ImportQuery = Type.Object({
  teamId: TeamIdQuery,
  dryRun: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: check and answer as an import would, creating nothing' }),
  ),
});

/** The JSON form: Create Post bodies, one per thread. */
export const ImportJsonBody = Type.Array(CreatePostBody, { minItems: 1, maxItems: 1000, description: 'Create Post bodies, one per thread, up to 1,000' });

/** The CSV form: a header row, then one row per post (docs/api.md, "Import"). */
export const ImportCsvBody = Type.String({
  description:
    'text/csv, UTF-8: a header row naming columns among thread, providerId, scheduleAt, text, media, altText, topic, tags, autoRepostHours, repeat (EVERY UNIT [until YYYY-MM-DD] [count N]); then one row per post',
});

export const ImportResponse = Type.Object({
  created: Type.Integer({ description: 'Threads created (dry run: that would be created)' }),
  threads: Type.Array(
    Type.Object({
      row: Type.Integer({ description: "The body's index (JSON), or the CSV data row of the thread's first post (from 0)" }),
      threadId: Type.Union([Id, Type.Null()], { description: 'null in a dry run' }),
      status: Type.Union([Type.Literal('scheduled'), Type.Literal('draft')]),
      scheduledAt: NullableIsoDateTime,
    }),
  ),
});

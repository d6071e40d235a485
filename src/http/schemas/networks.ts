import { Type } from '@sinclair/typebox';
import { NetworkKind } from './common.js';

const Count = Type.Integer({ minimum: 0 });

/** A network's limits (`GET /api/v1/networks`), and an account's own (`GET /api/v1/providers`). */
export const NetworkLimits = Type.Object({
  textPerPost: Type.Integer({ minimum: 1, description: 'What a post’s text may count: UTF-8 bytes on THREADS, characters (graphemes) elsewhere' }),
  postsPerThread: Count,
  mediaPerPost: Count,
  imagesPerPost: Count,
  videosPerPost: Count,
  imageBytes: Count,
  videoBytes: Count,
  videoSeconds: Type.Union([Count, Type.Null()], { description: 'null: the network sets no length' }),
});

const Network = Type.Object({
  kind: NetworkKind,
  name: Type.String({ description: 'As people write it: Threads, Bluesky, Mastodon' }),
  limits: NetworkLimits,
  options: Type.Array(Type.Union(['replyControl', 'quotesDisabled', 'quote', 'poll', 'langs', 'contentWarning'].map((name) => Type.Literal(name))), {
    description: 'The network options it takes (one it accepts and ignores is not listed)',
  }),
  connect: Type.Array(Type.Union([Type.Literal('oauth'), Type.Literal('token'), Type.Literal('appPassword')]), {
    description: 'How an account of it is connected',
  }),
});

export const NetworkList = Type.Object({ networks: Type.Array(Network) });

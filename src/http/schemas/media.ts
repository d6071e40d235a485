import { Type } from '@sinclair/typebox';
import { IsoDateTime, TeamIdQuery } from './common.js';

const MediaId = Type.String({ description: 'The upload id: 22 characters, 128 random bits (base64url)' });

export const Media = Type.Object({
  id: MediaId,
  url: Type.String({ description: "`<PUBLIC_URL>/media/<id>.<ext>`: public (no key), what a post's `media[].url` names" }),
  type: Type.Union([Type.Literal('IMAGE'), Type.Literal('VIDEO')]),
  mimeType: Type.String({ examples: ['image/jpeg', 'video/mp4'] }),
  bytes: Type.Integer(),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()], { description: 'Videos only; null for images' }),
  createdAt: IsoDateTime,
});

export const MediaFromUrlBody = Type.Object({ url: Type.String({ description: 'A public http(s) URL of an image or video' }) });

export const UploadQuery = Type.Object({ teamId: TeamIdQuery });

export const MediaList = Type.Object({ media: Type.Array(Media, { description: 'Newest first' }), count: Type.Integer() });

export const MediaIdParams = Type.Object({ id: MediaId });

export const DeletedMedia = Type.Object({ deleted: Type.Literal(true), id: MediaId });

export const ServedMediaParams = Type.Object({ name: Type.String({ description: "`<id>.<ext>`, as in the upload's url" }) });

export const MediaBytes = Type.String({ format: 'binary', description: 'The stored bytes (or the range asked for)' });

import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteRange, MediaStorage } from './storage.js';
import { checkKey } from './storage-key.js';

/** S3's smallest part; two in flight bound the memory an upload of any size holds (about 10 MiB). */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export interface S3Options {
  bucket: string;
  /** An S3-compatible server (MinIO, R2, s3rver…): path-style addressing; null for AWS itself. */
  endpoint: string | null;
  region: string;
}

/**
 * Media in an S3-compatible bucket, through the AWS SDK (credentials from its usual chain:
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role). Uploads stream as a
 * multipart upload, aborted on any failure, so an upload cut off leaves no object.
 */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(options: S3Options) {
    // The SDK's own switch for its notice that later releases need Node 22 (decisions.md):
    // a notice for the operator of the SDK, not of Skein, printed on every start otherwise.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.#bucket = options.bucket;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      // Checksums only where S3 requires them: S3-compatible servers differ in what they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: checkKey(key), Body: body, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    // The body's own failure (cut off, a limit passed) is the reason, not what aborting said.
    let bodyError: unknown = null;
    body.once('error', (err) => {
      bodyError = err;
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      await upload.abort().catch(() => undefined);
      throw bodyError ?? err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: checkKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const res = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: checkKey(key) }));
      return res.ContentLength ?? 0;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: checkKey(key) }));
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

function isMissing(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
}

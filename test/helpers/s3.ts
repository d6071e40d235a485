import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

/** s3rver's fixed credentials: it accepts S3RVER as key and secret. */
const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The environment an instance needs to use this bucket (SKEIN_MEDIA_S3_* and the credentials). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, from npm) on a free port, keeping its objects in a
 * temporary folder, with one bucket. The AWS SDK reads the credentials from the environment.
 */
export async function startS3(bucket = 'skein-media'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'skein-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  Object.assign(process.env, S3_CREDENTIALS);
  return {
    endpoint,
    bucket,
    env: { ...S3_CREDENTIALS, SKEIN_MEDIA_S3_BUCKET: bucket, SKEIN_MEDIA_S3_ENDPOINT: endpoint, SKEIN_MEDIA_S3_REGION: 'us-east-1' },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

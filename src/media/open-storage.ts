import type { MediaStorage } from './storage.js';

export interface MediaStorageConfig {
  dir: string;
  s3: { bucket: string; endpoint: string | null; region: string } | null;
}

/** The configured backend; the S3 one (and the AWS SDK) is loaded only when a bucket is set. */
export async function openMediaStorage(config: MediaStorageConfig): Promise<MediaStorage> {
  if (config.s3) {
    const { S3MediaStorage } = await import('./s3-storage.js');
    return new S3MediaStorage(config.s3);
  }
  const { LocalMediaStorage } = await import('./local-storage.js');
  return new LocalMediaStorage(config.dir);
}

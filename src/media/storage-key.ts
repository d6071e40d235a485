/** `<id>.<ext>` and nothing else: a key never names a folder or climbs out of one. */
const STORAGE_KEY = /^[A-Za-z0-9_-]{1,64}\.[a-z0-9]{1,8}$/;

export function checkKey(key: string): string {
  if (!STORAGE_KEY.test(key)) throw new Error(`not a media storage key: ${JSON.stringify(key)}`);
  return key;
}

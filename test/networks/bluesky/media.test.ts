import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { GuardedFetchError, permittedAddresses } from '../../../src/lib/guarded-fetch.js';
import { isPublicAddress } from '../../../src/lib/ip-policy.js';
import { downloadImageBytes, MAX_DOWNLOAD_BYTES, type MediaFetchOptions, prepareForBluesky } from '../../../src/networks/bluesky/media.js';
import { PublishError } from '../../../src/networks/platform.js';
import { pngImage } from '../../helpers/images.js';

/** What the platform does with a media URL: download, then make it Bluesky-ready. */
async function downloadImage(url: string, options: MediaFetchOptions) {
  return prepareForBluesky(await downloadImageBytes(url, options), url);
}

async function rejection(promise: Promise<unknown>): Promise<PublishError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PublishError, `expected a PublishError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

function assertPermanentMedia(err: PublishError, pattern?: RegExp): void {
  assert.equal(err.kind, 'permanent', err.message);
  assert.equal(err.code, 'INVALID_MEDIA');
  if (pattern) assert.match(err.message, pattern);
}

describe('isPublicAddress', () => {
  const refused = [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '10.255.1.2',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.2.10',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:0101::1',
    '2001:db8::1',
    // IPv6 is an allow-list of global unicast: the local-use NAT64 prefix, whatever IPv4 it
    // carries, documentation, IETF assignments (Teredo, benchmarking), and anything outside 2000::/3.
    '64:ff9b:1::a00:1',
    '64:ff9b:1::808:808',
    '3fff::1',
    '2001::1',
    '2001:2::1',
    '2001:10::1',
    '100::1',
    '4000::1',
    'e000::1',
    '::8.8.8.8',
  ];
  const allowed = [
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001::1',
    '64:ff9b::808:808',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
  ];

  for (const address of refused) test(`refuses ${address}`, () => assert.equal(isPublicAddress(address), false));
  for (const address of allowed) test(`allows ${address}`, () => assert.equal(isPublicAddress(address), true));
  test('refuses text that is not an address', () => assert.equal(isPublicAddress('localhost'), false));
});

describe('SSRF guard without allowPrivate', () => {
  const strict: MediaFetchOptions = { allowPrivate: false };
  const urls = [
    'http://127.0.0.1/a.png',
    'http://10.1.2.3/a.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/a.png',
    'http://[::ffff:127.0.0.1]/a.png',
    'http://2130706433/a.png',
    'http://0x7f.1/a.png',
    'http://0.0.0.0/a.png',
    'http://100.64.1.1/a.png',
    'http://[fd00::1]/a.png',
    'http://[fe80::1]/a.png',
    'https://224.0.0.1/a.png',
    'http://localhost/a.png', // resolved by the machine's own lookup (hosts file)
  ];
  for (const url of urls) {
    test(`refuses ${url}`, async () => {
      assertPermanentMedia(await rejection(downloadImage(url, strict)), /private or reserved/);
    });
  }

  test('refuses a host when any of its addresses is private', async () => {
    const lookup = async (): Promise<LookupAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await assert.rejects(
      permittedAddresses(new URL('https://cdn.example/a.png'), lookup, isPublicAddress),
      // The message names the host, never the address it resolved to (messages reach users).
      (err) => err instanceof GuardedFetchError && err.fault === 'refused-address' && /cdn\.example/.test(err.message) && !/10\.0\.0\.7/.test(err.message),
    );
  });

  test('accepts a host whose addresses are all public (checked without connecting)', async () => {
    const lookup = async (): Promise<LookupAddress[]> => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ];
    const addresses = await permittedAddresses(new URL('https://cdn.example/a.png'), lookup, isPublicAddress);
    assert.equal(addresses.length, 2);
  });

  test('refuses schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'gopher://127.0.0.1/', 'data:image/png;base64,AAAA', 'not a url']) {
      assertPermanentMedia(await rejection(downloadImage(url, { allowPrivate: true })));
    }
  });
});

describe('downloadImage from a local server', () => {
  const png = pngImage(6, 4);
  let server: http.Server;
  let base: string;
  let hostHeaders: string[] = [];
  let bigBytesSent = 0;
  /** Resolves once the server's side of the last /endless answer has closed. */
  let endlessClosed: Promise<void> = Promise.resolve();

  before(async () => {
    server = http.createServer((req, res) => route(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function route(req: http.IncomingMessage, res: http.ServerResponse): void {
    hostHeaders.push(req.headers.host ?? '');
    const path = req.url ?? '/';
    const redirect = /^\/redirect\/(\d+)$/.exec(path);
    if (path === '/image.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (path === '/octet') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png);
    if (path === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    if (path === '/fake.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end('not an image at all');
    if (path === '/declared-big') return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(MAX_DOWNLOAD_BYTES + 1) }).end();
    if (path === '/endless') return void streamForever(res);
    if (path === '/missing') return void res.writeHead(404).end();
    if (path === '/broken') return void res.writeHead(503).end();
    if (path === '/stall') return; // never answers
    if (path === '/to-other-host') return void res.writeHead(302, { location: `${base.replace('127.0.0.1', '127.0.0.2')}/image.png` }).end();
    if (redirect) {
      const left = Number(redirect[1]);
      return void res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/image.png' }).end();
    }
    res.writeHead(404).end();
  }

  /** Sends PNG-looking data without a length until the client hangs up. */
  function streamForever(res: http.ServerResponse): void {
    endlessClosed = new Promise((resolve) => res.once('close', () => resolve()));
    res.writeHead(200, { 'content-type': 'image/png' });
    const chunk = Buffer.concat([png, Buffer.alloc(64 * 1024 - png.length)]);
    const push = () => {
      while (!res.destroyed && res.write(chunk)) bigBytesSent += chunk.length;
      if (!res.destroyed) res.once('drain', push);
    };
    push();
  }

  const loose = (): MediaFetchOptions => ({ allowPrivate: true });

  test('returns the prepared bytes, their type and size', async () => {
    const image = await downloadImage(`${base}/image.png`, loose());
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([image.width, image.height], [6, 4]);
  });

  test('accepts a generic content type when the bytes are an image', async () => {
    assert.equal((await downloadImage(`${base}/octet`, loose())).mimeType, 'image/png');
  });

  test('refuses a wrong content type and bytes that are not an image', async () => {
    assertPermanentMedia(await rejection(downloadImage(`${base}/html`, loose())), /text\/html/);
    assertPermanentMedia(await rejection(downloadImage(`${base}/fake.png`, loose())), /not a JPEG/);
  });

  test('refuses media over the size limit, early', async () => {
    assertPermanentMedia(await rejection(downloadImage(`${base}/declared-big`, loose())), /larger than/);
    assertPermanentMedia(await rejection(downloadImage(`${base}/endless`, loose())), /larger than/);
    // Counted once the server's side of the stream has closed (not after a pause that a loaded
    // machine may overrun): the client stopped reading at the limit, so far less than an endless
    // stream was sent.
    await endlessClosed;
    assert.ok(bigBytesSent < 2 * MAX_DOWNLOAD_BYTES, `server sent ${bigBytesSent} bytes`);
  });

  test('4xx is permanent, 5xx and timeouts are transient', async () => {
    assertPermanentMedia(await rejection(downloadImage(`${base}/missing`, loose())), /404/);
    const broken = await rejection(downloadImage(`${base}/broken`, loose()));
    assert.equal(broken.kind, 'transient');
    const stalled = await rejection(downloadImage(`${base}/stall`, { allowPrivate: true, timeoutMs: 300 }));
    assert.equal(stalled.kind, 'transient');
    assert.match(stalled.message, /timed out/);
  });

  test('connection refused is transient', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await rejection(downloadImage(`http://127.0.0.1:${port}/a.png`, loose()));
    assert.equal(err.kind, 'transient');
  });

  test('follows up to 3 redirects, not 4', async () => {
    assert.equal((await downloadImage(`${base}/redirect/3`, loose())).mimeType, 'image/png');
    assertPermanentMedia(await rejection(downloadImage(`${base}/redirect/4`, loose())), /redirects/);
  });

  test('re-checks the host of every redirect', async () => {
    const onlyFirstHost = { allowPrivate: false, allowAddress: (address: string) => address === '127.0.0.1' };
    assert.equal((await downloadImage(`${base}/image.png`, onlyFirstHost)).mimeType, 'image/png');
    assertPermanentMedia(await rejection(downloadImage(`${base}/to-other-host`, onlyFirstHost)), /127\.0\.0\.2/);
  });

  test('connects to the address that was checked, resolving the name once', async () => {
    const port = new URL(base).port;
    let lookups = 0;
    const lookup = async (): Promise<LookupAddress[]> => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    hostHeaders = [];
    // images.test exists in no DNS: only the pinned, checked address can have been used.
    const image = await downloadImage(`http://images.test:${port}/image.png`, { allowPrivate: true, lookup });
    assert.equal(image.mimeType, 'image/png');
    assert.equal(lookups, 1);
    assert.deepEqual(hostHeaders, [`images.test:${port}`]);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A local web server holding media, as a CDN would, for the fakes that fetch media as the
 * networks do (the fake Graph API downloads `image_url` / `video_url`). Any path answers by its
 * extension: `.jpg`/`.jpeg`/`.png`/`.gif`/`.webp` a small real image, `.mp4`/`.mov`/`.m4v` the
 * start of an MP4; a path holding `missing` answers 404, `broken` 503, `.html` a web page;
 * `/redirect?to=URL` a 302 to URL. `files` adds answers at exact paths (a real video, say).
 */
export interface MediaServer {
  base: string;
  /** Paths requested, in order (query strings included). */
  requests: string[];
  close(): Promise<void>;
}

const VIDEO_START = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42\0\0\0\0mp42isom', 'latin1')]);

export async function startMediaServer(files: Record<string, { type: string; body: Buffer }> = {}): Promise<MediaServer> {
  const image = sharp({ create: { width: 8, height: 6, channels: 3, background: '#a05030' } });
  const bodies: Record<string, { type: string; body: Buffer }> = {
    jpg: { type: 'image/jpeg', body: await image.clone().jpeg().toBuffer() },
    png: { type: 'image/png', body: await image.clone().png().toBuffer() },
    gif: { type: 'image/gif', body: await image.clone().gif().toBuffer() },
    webp: { type: 'image/webp', body: await image.clone().webp().toBuffer() },
    mp4: { type: 'video/mp4', body: VIDEO_START },
    mov: { type: 'video/quicktime', body: VIDEO_START },
    html: { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html><title>Not media</title>') },
  };
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const pathname = path.replace(/[?#].*$/, '');
    const exact = files[pathname];
    if (exact) return void res.writeHead(200, { 'content-type': exact.type, 'content-length': String(exact.body.length) }).end(exact.body);
    if (pathname === '/redirect') {
      const to = new URL(path, 'http://x').searchParams.get('to') ?? '/';
      return void res.writeHead(302, { location: to }).end();
    }
    if (pathname.includes('missing')) return void res.writeHead(404).end();
    if (pathname.includes('broken')) return void res.writeHead(503).end();
    const ext = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
    const file = bodies[{ jpeg: 'jpg', m4v: 'mp4' }[ext] ?? ext];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(req.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

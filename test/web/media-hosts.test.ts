/**
 * The editor's Threads reachability notice (web/src/media-hosts.ts, bundled for the browser)
 * against the server's address policy (src/lib/ip-policy.ts): for a URL on an address literal, the
 * editor warns exactly when the server's check would refuse it. Names the server resolves, so
 * the editor only knows the local-only ones.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPublicAddress } from '../../src/lib/ip-policy.js';
import { unreachableHost } from '../../web/src/media-hosts.js';

const V4 = [
  '127.0.0.1',
  '127.8.9.10',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '172.32.0.1',
  '192.168.1.20',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '8.8.8.8',
  '93.184.216.34',
  '11.0.0.1',
];
const V6 = [
  '::1',
  '::',
  'fd00::1',
  'fc12::7',
  'fe80::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::ffff:8.8.8.8',
  '2001:4860:4860::8888',
  '2606:4700::1111',
  // The allow-list of global unicast: NAT64 and 6to4 by their IPv4, the rest of the space refused.
  '64:ff9b::808:808',
  '64:ff9b::a00:1',
  '64:ff9b:1::808:808',
  '2002:808:808::1',
  '2002:c0a8:101::1',
  '2001::1',
  '2001:db8::1',
  '3fff::1',
  '100::1',
  '4000::1',
  'ff02::1',
];

test('an address literal: the editor warns exactly when the server refuses it', () => {
  for (const ip of V4) {
    assert.equal(unreachableHost(`http://${ip}:8080/media/a.png`) !== null, !isPublicAddress(ip), ip);
  }
  for (const ip of V6) {
    assert.equal(unreachableHost(`https://[${ip}]/media/a.png`) !== null, !isPublicAddress(ip), ip);
  }
});

test('names: local-only ones are said, public ones left to the server', () => {
  for (const url of [
    'http://localhost:3000/media/a.png',
    'http://skein.localhost/a.png',
    'http://nas.local/a.jpg',
    'http://box.internal/a.jpg',
    'http://skein/a.png',
  ]) {
    assert.ok(unreachableHost(url), url);
  }
  for (const url of ['https://cdn.example.com/a.jpg', 'https://skein.example.org/media/a.png', 'not a url', 'ftp://10.0.0.1/a.png']) {
    assert.equal(unreachableHost(url), null, url);
  }
  assert.match(unreachableHost('http://127.0.0.1:8080/media/a.png')!, /loopback/);
  assert.match(unreachableHost('http://192.168.1.20/cat.jpg')!, /private/);
});

import { FuzzTarget } from './harness.js';

const t = await FuzzTarget.open(process.argv[2] as 'postgres');
console.log('port', t.port, process.argv[3]);
const r = await t.send({
  method: 'GET',
  url: '/api/v1/account',
  headers: [['authorization', `Bearer ${t.keys.a}`]],
  body: undefined,
  transport: process.argv[3] as 'http',
});
console.log(r?.status, r?.body.toString());
await new Promise((r) => setTimeout(r, 1000));
console.log('closing');
await t.close();

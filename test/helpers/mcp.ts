import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';

/** The SDK client's fetch, answered by app.inject: the whole HTTP exchange, no port. */
function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) out.set(name, String(value));
    const nullBody = response.statusCode === 204 || response.statusCode === 202 || response.body === '';
    return new Response(nullBody ? null : response.body, { status: response.statusCode, headers: out });
  };
}

/** An SDK client over Streamable HTTP to the app's /mcp with `key` as Bearer (no key: none sent). */
export async function connectOverHttp(app: FastifyInstance, key: string | null): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://skein.test/mcp'), {
    fetch: injectFetch(app),
    requestInit: key === null ? {} : { headers: { authorization: `Bearer ${key}` } },
  });
  return connect(transport);
}

export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'skein-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result (its one text item). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const item = content[0];
  if (content.length !== 1 || item?.type !== 'text') throw new Error(`expected one text item, got ${JSON.stringify(content)}`);
  return item.text;
}

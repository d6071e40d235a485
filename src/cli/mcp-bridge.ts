import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { CliUsageError } from './errors.js';

/** The running Skein's /mcp, from SKEIN_URL (its base, as in PUBLIC_URL). */
function endpointOf(base: string | undefined): URL {
  if (!base) throw new CliUsageError('SKEIN_URL is not set: the address of the running Skein, such as http://127.0.0.1:3000 (docs/agents.md)');
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new CliUsageError(`SKEIN_URL is not a URL: ${base}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliUsageError(`SKEIN_URL must be http(s): ${base}`);
  return new URL(`${url.pathname.replace(/\/+$/, '')}/mcp`, url);
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && 'id' in message;
}

/**
 * `skein mcp`: a stdio MCP server for clients that launch one. It holds no tools of its own:
 * each message goes to the running Skein's /mcp (one implementation of the tools, with the key's
 * own workspace, roles and limits) and each answer comes back. Ends when the client closes stdin.
 */
async function runMcpBridge(env: NodeJS.ProcessEnv): Promise<number> {
  const endpoint = endpointOf(env.SKEIN_URL);
  const key = env.SKEIN_API_KEY;
  if (!key) throw new CliUsageError('SKEIN_API_KEY is not set: an API key of the Skein account the assistant acts for (docs/agents.md)');
  const remote = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const local = new StdioServerTransport();
  const initializeIds = new Set<string | number>();
  remote.onmessage = (message) => {
    // After initialize, each request says the version agreed on (Streamable HTTP's header).
    if ('result' in message && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      remote.setProtocolVersion(typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION);
    }
    void local.send(message);
  };
  local.onmessage = (message) => {
    if (isRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    remote.send(message).catch((err: unknown) => {
      // Skein refused or could not be reached: the client hears it as the request's error.
      if (isRequest(message))
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `Skein at ${endpoint.origin}: ${errorText(err)}` } });
      else process.stderr.write(`skein mcp: ${errorText(err)}\n`);
    });
  };
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await remote.start();
  await local.start();
  await closed;
  await remote.close();
  await local.close();
  return 0;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The commands that are clients of a running Skein (the table's `client` entries), by name. */
export const CLIENT: Record<string, (env: NodeJS.ProcessEnv) => Promise<number>> = { mcp: runMcpBridge };

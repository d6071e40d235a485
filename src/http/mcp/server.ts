import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { McpRefusedError } from '../../errors/index.js';
import { requestHash } from '../../services/threads/threads.js';
import { type RestRequest, TOOLS, type Tool } from './tools.js';

const INSTRUCTIONS =
  "Skein schedules posts and threads on the user's social accounts. Start with get_account (the user's time zone) and list_accounts (the social accounts' ids). " +
  "A time without an offset (2026-12-01T09:00:00) is local time in the user's time zone. Read a thread with get_thread before changing it and pass its etag. " +
  'Creates are safe to retry: the same call with the same arguments creates nothing new.';

/** The headers of an MCP request the SDK's transport reads; nothing else (no cookie, no key) reaches it. */
const TRANSPORT_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/**
 * Every answer is JSON (no stream), so a client that takes JSON (or anything, or says nothing,
 * as curl) is answered; the transport wants both types listed, so it is told that.
 */
function acceptFor(given: string | undefined): string | undefined {
  if (given === undefined || /application\/json|\*\/\*|application\/\*/i.test(given)) return 'application/json, text/event-stream';
  return given;
}

/** The transport's own refusal (a JSON-RPC error with an HTTP status) as the problem every route answers. */
async function refusedMessage(response: Response): Promise<Error> {
  const text = await response.text();
  let detail = text;
  try {
    detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    // Not JSON-RPC: the text says it.
  }
  const status = response.status;
  if (status === 400 || status === 406 || status === 413 || status === 415) return new McpRefusedError(status, detail);
  return new Error(`MCP transport answered ${status}: ${detail}`);
}

interface CompiledTool {
  tool: Tool;
  check: TypeCheck<Tool['input']>;
}

/** The tools with their argument checks, compiled once per app. */
export function compileTools(tools: Tool[] = TOOLS): Map<string, CompiledTool> {
  return new Map(tools.map((tool) => [tool.name, { tool, check: TypeCompiler.Compile(tool.input) }]));
}

/** `/posts/0/text` → `posts.0.text`, the REST API's way of naming a field. */
function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/** Arguments that do not fit the tool's schema: a protocol error naming each field (one message per field). */
function checkArguments({ tool, check }: CompiledTool, args: unknown): void {
  if (check.Check(args)) return;
  const byPath = new Map<string, string>();
  for (const error of check.Errors(args)) if (!byPath.has(error.path)) byPath.set(error.path, error.message);
  const faults = [...byPath].map(([path, message]) => `${fieldPath(path) || '(arguments)'}: ${message}`);
  throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.name}: ${faults.join('; ')}`);
}

interface ProblemBody {
  title?: string;
  detail?: string;
  code?: string;
  errors?: Array<{ path: string; message: string }>;
}

/** A refusal as the model reads it: the problem's detail, then each fault at its field path. */
function refusal(response: LightMyRequestResponse): CallToolResult {
  let problem: ProblemBody = {};
  try {
    problem = response.json() as ProblemBody;
  } catch {
    // Not a problem body: the status says it.
  }
  const lines = [`${problem.code ?? `HTTP ${response.statusCode}`}: ${problem.detail ?? problem.title ?? 'refused'}`];
  for (const fault of problem.errors ?? []) lines.push(`- ${fault.path || '(body)'}: ${fault.message}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

function success(tool: Tool, response: LightMyRequestResponse): CallToolResult {
  const etag = response.headers.etag;
  const rest = { body: response.body === '' ? null : response.json(), etag: typeof etag === 'string' ? etag : undefined };
  const answer = tool.answer ? tool.answer(rest) : rest.body;
  const structured = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? { structuredContent: answer as Record<string, unknown> } : {};
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], ...structured };
}

/**
 * The key a write is sent with: the one given, or one derived from the tool, its arguments and
 * the caller's API key, so that a model's retry of the same call is the same request.
 */
function idempotencyKeyOf(tool: Tool, args: Record<string, unknown>, apiKeyId: string | null): string {
  const { idempotencyKey, ...rest } = args;
  if (typeof idempotencyKey === 'string') return idempotencyKey;
  return `mcp-${requestHash({ tool: tool.name, arguments: rest, apiKey: apiKeyId })}`;
}

/** One tool call: the REST operation, called in process on behalf of the caller. */
async function callTool(app: FastifyInstance, request: FastifyRequest, compiled: CompiledTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const { tool } = compiled;
  const rest: RestRequest = tool.request(args as never);
  const headers: Record<string, string> = {};
  if (rest.body !== undefined) headers['content-type'] = 'application/json';
  if (rest.ifMatch !== undefined) headers['if-match'] = rest.ifMatch;
  if (rest.idempotent) headers['idempotency-key'] = idempotencyKeyOf(tool, args, request.apiKeyId);
  const response = await app.injectAsCaller(request, {
    method: rest.method,
    url: rest.url,
    ...(rest.query ? { query: rest.query } : {}),
    ...(rest.body !== undefined ? { payload: JSON.stringify(rest.body) } : {}),
    headers,
  });
  return response.statusCode < 300 ? success(tool, response) : refusal(response);
}

function mcpServer(app: FastifyInstance, request: FastifyRequest, tools: Map<string, CompiledTool>): Server {
  const server = new Server({ name: 'skein', title: 'Skein', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools.values()].map(({ tool }) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input as { type: 'object' },
      annotations: { title: tool.title, readOnlyHint: !tool.writes, destructiveHint: tool.destructive === true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const compiled = tools.get(call.params.name);
    if (!compiled) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    const args = call.params.arguments ?? {};
    checkArguments(compiled, args);
    return callTool(app, request, compiled, args);
  });
  return server;
}

/**
 * One MCP message (Streamable HTTP, stateless): a server and transport of its own, answered as
 * JSON (no stream), so nothing outlives the request and any instance can answer the next one.
 */
export async function answerMcpRequest(
  app: FastifyInstance,
  tools: Map<string, CompiledTool>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const server = mcpServer(app, request, tools);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const accept = acceptFor(request.headers.accept);
    if (accept !== undefined) headers.set('accept', accept);
    const response = await transport.handleRequest(new Request('http://skein.invalid/mcp', { method: request.method, headers }), {
      parsedBody: request.body,
    });
    if (response.status >= 300) throw await refusedMessage(response);
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    const body = await response.text();
    return reply.send(body === '' ? undefined : body);
  } finally {
    await server.close();
  }
}

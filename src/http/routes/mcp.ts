import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowedError } from '../../errors/index.js';
import { withProblems } from '../schemas/common.js';
import { McpAnswer, McpMessage } from '../schemas/mcp.js';

/** A JSON-RPC message; the SDK's transport checks its shape (a JSON-RPC error otherwise). */
const MCP_BODY_LIMIT = 16 * 1024 * 1024;

/** answerMcpRequest with the app's compiled tools (../mcp/server.ts). */
type McpAnswerer = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * The Model Context Protocol's Streamable HTTP endpoint (docs/agents.md), stateless: POST only.
 * GET (a stream of the server's own messages) and DELETE (ending a session) mean nothing without
 * sessions: 405, as the protocol says (and so GET /mcp is never the web app's page).
 */
export const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The MCP SDK (with zod) and the tools' compiled argument checks load at the first POST /mcp:
  // about 13 MiB of a server's idle RSS that only an agent's requests need (docs/benchmarks.md,
  // "Idle RSS on PostgreSQL"). One load per app, kept; a failed one is tried again next time.
  let loading: Promise<McpAnswerer> | null = null;
  const answerer = (): Promise<McpAnswerer> => {
    loading ??= import('../mcp/server.js').then(
      ({ answerMcpRequest, compileTools }) => {
        const tools = compileTools();
        return (request, reply) => answerMcpRequest(app, tools, request, reply);
      },
      (err: unknown) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  };
  app.post('/mcp', {
    // import_threads carries up to 1,000 threads, as the import route takes.
    bodyLimit: MCP_BODY_LIMIT,
    config: { apiKeyOnly: true },
    schema: {
      tags: ['Agents'],
      summary: 'Model Context Protocol (Streamable HTTP, stateless): the tools of docs/agents.md, with the API key as Bearer',
      description:
        'Each tool is one REST operation of this API, called with the same key. An answer is JSON (never a stream); 202 for a notification. Only an API key opens it (no session cookie).',
      security: [{ bearer: [] }, { apiKey: [] }],
      body: McpMessage,
      response: withProblems({ 200: McpAnswer, 202: Type.Null({ description: 'A notification, taken' }) }, [406]),
    },
    handler: async (request, reply) => (await answerer())(request, reply),
  });
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: async (request, reply) => {
      reply.header('allow', 'POST');
      throw new MethodNotAllowedError(`${request.method} is not allowed on /mcp: this MCP server is stateless (no sessions, no stream); use POST.`);
    },
  });
};

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { MethodNotAllowedError } from '../../errors/index.js';
import { answerMcpRequest, compileTools } from '../mcp/server.js';
import { withProblems } from '../schemas/common.js';
import { McpAnswer, McpMessage } from '../schemas/mcp.js';

/** A JSON-RPC message; the SDK's transport checks its shape (a JSON-RPC error otherwise). */
const MCP_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The Model Context Protocol's Streamable HTTP endpoint (docs/agents.md), stateless: POST only.
 * GET (a stream of the server's own messages) and DELETE (ending a session) mean nothing without
 * sessions: 405, as the protocol says (and so GET /mcp is never the web app's page).
 */
export const mcpRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tools = compileTools();
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
    handler: async (request, reply) => answerMcpRequest(app, tools, request, reply),
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

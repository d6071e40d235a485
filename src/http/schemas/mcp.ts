import { Type } from '@sinclair/typebox';
import { compiledAtFirstUse } from '../lazy-compilers.js';
import { TOOLS } from '../mcp/tools.js';

const RequestId = Type.Union([Type.String(), Type.Integer()]);

/** A call of one tool, its arguments the tool's own schema (the REST route's). */
const toolCalls = TOOLS.map((tool) =>
  Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      id: RequestId,
      method: Type.Literal('tools/call'),
      params: Type.Object({ name: Type.Literal(tool.name), arguments: tool.input }),
    },
    { title: tool.name, description: tool.description },
  ),
);

/** Any other JSON-RPC message (initialize, tools/list, ping, notifications): the SDK reads it. */
const OtherMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(RequestId),
    method: Type.Optional(Type.String()),
    params: Type.Optional(Type.Object({})),
    result: Type.Optional(Type.Object({})),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String() })),
  },
  { title: 'message' },
);

/**
 * One JSON-RPC message (no batches: the protocol's 2025-06-18 revision dropped them). Its
 * validator, every tool's arguments in one union, is compiled at the first POST /mcp and not by
 * the warm-up (about 7 MiB a server would otherwise hold from its start).
 */
export const McpMessage = compiledAtFirstUse(
  Type.Union([...toolCalls, OtherMessage], {
    type: 'object',
    description: 'One JSON-RPC 2.0 message of the Model Context Protocol (docs/agents.md): a tools/call of one of the tools, or any other message',
  }),
);

export const McpAnswer = Type.Object(
  { jsonrpc: Type.Literal('2.0'), id: Type.Union([RequestId, Type.Null()]) },
  { additionalProperties: true, description: 'The JSON-RPC answer: result (a tool refusal is a result with isError) or error' },
);

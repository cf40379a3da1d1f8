import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/**
 * The SDK answers a request whose params fail its schema with zod's issue list as raw JSON, as an
 * "internal error" (`tools/call` with `"arguments": []` among them), and a tool's bad arguments with
 * "MCP error -32602: Input validation error: …". These checks run before the SDK sees a request and
 * answer in words instead: JSON-RPC's invalid params for a malformed request, and for a tool's arguments
 * the tool's own error answer, as the SDK would, with one line per field.
 */

export const ARGUMENTS_NOT_OBJECT = "The arguments must be a JSON object.";

/** The SDK's own schema of each client request, by method. */
const REQUEST_SCHEMAS = new Map<string, z.ZodType>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

type Answer = { error: { code: number; message: string } } | { result: CallToolResult };

const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `field: problem` for each issue. zod's issues carry no input by default, so a missing field shows only
 * as "received undefined".
 */
const problems = (issues: readonly z.core.$ZodIssue[], top: string) =>
  issues.map((i) => {
    const field = i.path.join(".") || top;
    if (i.code === "invalid_type" && i.message.endsWith("received undefined")) return `${field}: required`;
    return `${field}: ${i.message.replace(/^Invalid (input|option): /, "")}`;
  });

/** The answer to a malformed request, or null to let the SDK handle it (unknown methods included). */
export function malformedRequestAnswer(
  request: JSONRPCRequest,
  toolArguments: ReadonlyMap<string, z.ZodType>,
): Answer | null {
  const invalidParams = (message: string): Answer => ({ error: { code: ErrorCode.InvalidParams, message } });
  const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
  if (request.method === "tools/call" && isObject(params) && params!.arguments !== undefined) {
    if (!isObject(params!.arguments)) return invalidParams(ARGUMENTS_NOT_OBJECT);
  }
  const schema = REQUEST_SCHEMAS.get(request.method);
  const parsed = schema?.safeParse(request);
  if (parsed && !parsed.success) {
    const list = problems(parsed.error.issues, "params").join("; ");
    return invalidParams(`Invalid ${request.method} request: ${list}`);
  }
  if (request.method !== "tools/call") return null;
  const name = params!.name as string;
  const args = toolArguments.get(name)?.safeParse(params!.arguments ?? {});
  if (!args || args.success) return null;
  const text = [`Invalid arguments for ${name}:`, ...problems(args.error.issues, "arguments")].join("\n");
  return { result: { content: [{ type: "text", text }], isError: true } };
}

/**
 * Puts the checks between a connected server and its transport: a malformed request is answered on the
 * transport and never reaches the server; everything else goes on as it came.
 */
export function checkRequests(transport: Transport, toolArguments: ReadonlyMap<string, z.ZodType>): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("Connect the server to the transport before checking its requests.");
  transport.onmessage = (message, extra) => {
    const answer = isJSONRPCRequest(message) ? malformedRequestAnswer(message, toolArguments) : null;
    if (!answer) return deliver(message, extra);
    transport
      .send({ jsonrpc: "2.0", id: (message as JSONRPCRequest).id, ...answer })
      .catch((err: Error) => transport.onerror?.(err));
  };
}

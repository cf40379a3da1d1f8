import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ARGUMENTS_NOT_OBJECT, checkRequests, malformedRequestAnswer } from "./request-check";

const TOOLS = new Map<string, z.ZodType>([
  ["set_task_status", z.object({ task_id: z.string(), status: z.enum(["pending", "completed"]) })],
]);

const request = (method: string, params?: unknown): JSONRPCRequest =>
  ({ jsonrpc: "2.0", id: 7, method, params }) as JSONRPCRequest;
const answer = (method: string, params?: unknown) => malformedRequestAnswer(request(method, params), TOOLS);
const invalidParams = (message: string) => ({ error: { code: -32602, message } });

describe("malformedRequestAnswer", () => {
  it("says the arguments must be an object, whatever else they are", () => {
    for (const args of [[], ["a"], "x", 5, null, true]) {
      expect(answer("tools/call", { name: "set_task_status", arguments: args })).toEqual(
        invalidParams(ARGUMENTS_NOT_OBJECT),
      );
    }
  });

  it("lists a malformed request's fields and problems in words, not as zod's JSON", () => {
    const bad = answer("tools/call", { name: 5 });
    expect(bad).toEqual(
      invalidParams("Invalid tools/call request: params.name: expected string, received number"),
    );
    expect(answer("resources/read", { uri: 5 })).toEqual(
      invalidParams("Invalid resources/read request: params.uri: expected string, received number"),
    );
    expect(answer("tools/call", {})).toEqual(
      invalidParams("Invalid tools/call request: params.name: required"),
    );
    expect(JSON.stringify(bad)).not.toMatch(/"code":\s*"invalid_type"|\\n/);
  });

  it("answers a tool's bad arguments as the tool's error, one line per field", () => {
    expect(
      answer("tools/call", { name: "set_task_status", arguments: { task_id: 5, status: "done" } }),
    ).toEqual({
      result: {
        isError: true,
        content: [
          {
            type: "text",
            text: [
              "Invalid arguments for set_task_status:",
              "task_id: expected string, received number",
              'status: expected one of "pending"|"completed"',
            ].join("\n"),
          },
        ],
      },
    });
    expect(answer("tools/call", { name: "set_task_status" })).toMatchObject({
      result: { content: [{ text: expect.stringContaining("task_id: required") }] },
    });
  });

  it("lets through good requests, unknown tools and unknown methods for the SDK to answer", () => {
    const good = { name: "set_task_status", arguments: { task_id: "a", status: "completed" } };
    expect(answer("tools/call", good)).toBeNull();
    expect(answer("tools/call", { name: "no_such_tool", arguments: {} })).toBeNull();
    expect(answer("tools/list")).toBeNull();
    expect(answer("resources/read", { uri: "atomize://plans/x" })).toBeNull();
    expect(answer("no/such/method", { anything: [] })).toBeNull();
  });
});

describe("checkRequests", () => {
  it("answers a malformed request on the transport, and passes everything else to the server", async () => {
    const delivered: JSONRPCMessage[] = [];
    const sent: JSONRPCMessage[] = [];
    const transport = {
      onmessage: (message: JSONRPCMessage) => delivered.push(message),
      send: async (message: JSONRPCMessage) => {
        sent.push(message);
      },
    } as unknown as Transport;
    checkRequests(transport, TOOLS);
    const good = request("tools/list");
    const notification = { jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage;
    transport.onmessage!(good);
    transport.onmessage!(notification);
    transport.onmessage!(request("tools/call", { name: "set_task_status", arguments: [] }));
    await Promise.resolve();
    expect(delivered).toEqual([good, notification]);
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 7, ...invalidParams(ARGUMENTS_NOT_OBJECT) }]);
  });

  it("needs a connected server", () => {
    expect(() => checkRequests({} as Transport, TOOLS)).toThrow(/Connect the server/);
  });
});

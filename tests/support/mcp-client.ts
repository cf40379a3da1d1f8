import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/**
 * The official MCP SDK's own client, connected over Streamable HTTP to a running server's /mcp with a
 * personal access token: what Claude Code, Cursor or VS Code do.
 */
export async function connectMcp(baseUrl: string, token: string | null): Promise<Client> {
  const client = new Client({ name: "atomize-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

type ToolAnswer = { isError?: boolean; content: { type: string; text?: string }[] };

/** A tool's text answer, parsed as JSON when it is JSON; throws with the tool's message on isError. */
export async function callTool<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = res.content.map((c) => c.text ?? "").join("");
  if (res.isError) throw new Error(`${name} refused: ${text}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    return text as T;
  }
}

/** A tool's error text (fails if the call succeeded). */
export async function toolError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const res = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  if (!res.isError) throw new Error(`${name} was expected to fail, answered: ${JSON.stringify(res.content)}`);
  return res.content.map((c) => c.text ?? "").join("");
}

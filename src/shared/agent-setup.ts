/**
 * Copy-paste setup for coding agents and the command line, with the user's own Atomize URL (and, just
 * after making one, their token) filled in: shown in Settings → API tokens and written in the README.
 * Formats: Claude Code's `claude mcp add --transport http … --header`, Cursor's mcp.json `mcpServers`
 * with `url` and `headers`, VS Code's mcp.json `servers` with `type: "http"` and a password input
 * (code.visualstudio.com/docs/copilot/reference/mcp-configuration).
 */

export const MCP_PATH = "/mcp";

/** What to ask a configured agent so that it plans a project with its own model (decision 029). */
export const PLAN_REQUEST = "Plan <description> in Atomize";
export const TOKEN_PLACEHOLDER = "<your token>";

export type AgentSetup = {
  id: "claude-code" | "cursor" | "vscode" | "cli";
  label: string;
  /** Where the text goes. */
  where: string;
  text: string;
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's own input variable, which VS Code fills in.
const VSCODE_TOKEN_INPUT = "${input:atomize-token}";

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The MCP server's URL on an Atomize site (`origin` without a trailing slash). */
export function mcpUrl(origin: string): string {
  return `${origin.replace(/\/+$/, "")}${MCP_PATH}`;
}

export function agentSetups(origin: string, token: string = TOKEN_PLACEHOLDER): AgentSetup[] {
  const url = mcpUrl(origin);
  const site = origin.replace(/\/+$/, "");
  return [
    {
      id: "claude-code",
      label: "Claude Code",
      where: "Run in a terminal:",
      text: `claude mcp add --transport http atomize ${url} --header "Authorization: Bearer ${token}"`,
    },
    {
      id: "cursor",
      label: "Cursor",
      where: "Add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project):",
      text: json({ mcpServers: { atomize: { url, headers: { Authorization: `Bearer ${token}` } } } }),
    },
    {
      id: "vscode",
      label: "VS Code",
      where: "Add to .vscode/mcp.json (VS Code asks for the token once and keeps it):",
      text: json({
        servers: {
          atomize: { type: "http", url, headers: { Authorization: `Bearer ${VSCODE_TOKEN_INPUT}` } },
        },
        inputs: [
          { type: "promptString", id: "atomize-token", description: "Atomize API token", password: true },
        ],
      }),
    },
    {
      id: "cli",
      label: "Command line",
      where: "Sign the command line in (it asks for the token), then ask for the next task:",
      text: `npx atomize login --url ${site}\nnpx atomize projects\nnpx atomize next <project id>`,
    },
  ];
}

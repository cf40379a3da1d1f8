/**
 * Copy-paste setup for coding agents and the command line, with the user's own Atomize URL (and, just
 * after making one, their token) filled in: shown in Settings → API tokens and written in the README.
 * Formats: Claude Code's `claude mcp add --transport http … --header`, Cursor's mcp.json `mcpServers`
 * with `url` and `headers`, VS Code's mcp.json `servers` with `type: "http"` and a password input
 * (code.visualstudio.com/docs/copilot/reference/mcp-configuration); Codex's ~/.codex/config.toml
 * `[mcp_servers.<name>]` with `url` and `bearer_token_env_var` (Codex refuses an inline token there;
 * developers.openai.com/codex/mcp), Windsurf's ~/.codeium/windsurf/mcp_config.json `mcpServers` with
 * `serverUrl` (its `url` is not read) and `headers` (docs.windsurf.com/windsurf/cascade/mcp), Gemini CLI's
 * ~/.gemini/settings.json `mcpServers` with `httpUrl` (its `url` means SSE) and `headers`
 * (geminicli.com/docs/tools/mcp-server).
 */

export const MCP_PATH = "/mcp";

/**
 * Which clients can lend Atomize their model through MCP sampling (the server plans with the client's
 * model): VS Code and Visual Studio only, as of December 2026, and the 2026-07-28 specification deprecates
 * it. Every client plans with its own model through the planning tools instead.
 */
export const SAMPLING_NOTE =
  "Planning with the client's model through MCP sampling works in VS Code and Visual Studio only (the 2026-07-28 MCP specification deprecates sampling); every other agent plans through the planning tools.";

/** Where a client that met a 401 learns how to get a token (the MCP server's protected-resource metadata). */
export const TOKENS_PAGE = "/settings?tab=api-tokens";

/** What to ask a configured agent so that it plans a project with its own model (decision 029). */
export const PLAN_REQUEST = "Plan <description> in Atomize";
export const TOKEN_PLACEHOLDER = "<your token>";
/** The environment variable Codex reads the token from. */
export const TOKEN_ENV = "ATOMIZE_TOKEN";

export type AgentSetup = {
  id: "claude-code" | "cursor" | "vscode" | "codex" | "windsurf" | "gemini" | "cli";
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
      id: "codex",
      label: "Codex",
      where: `Add to ~/.codex/config.toml, and set ${TOKEN_ENV} in the shell Codex starts from (Codex takes the token only from the environment):`,
      text: `[mcp_servers.atomize]\nurl = "${url}"\nbearer_token_env_var = "${TOKEN_ENV}"\n\n# in your shell profile:\n# export ${TOKEN_ENV}="${token}"`,
    },
    {
      id: "windsurf",
      label: "Windsurf",
      where: "Add to ~/.codeium/windsurf/mcp_config.json (MCP toolbar, Configure), then refresh the servers:",
      text: json({
        mcpServers: { atomize: { serverUrl: url, headers: { Authorization: `Bearer ${token}` } } },
      }),
    },
    {
      id: "gemini",
      label: "Gemini CLI",
      where: "Add to ~/.gemini/settings.json, then run /mcp in Gemini CLI to see it connected:",
      text: json({
        mcpServers: { atomize: { httpUrl: url, headers: { Authorization: `Bearer ${token}` } } },
      }),
    },
    {
      id: "cli",
      label: "Command line",
      where:
        "The atomize command comes with Atomize's source: run these in a clone of it, after npm install. It asks for the token once, then gives the next task:",
      text: `npx atomize login --url ${site}\nnpx atomize projects\nnpx atomize next <project id>`,
    },
  ];
}

import { describe, expect, it } from "vitest";
import { agentSetups, mcpUrl, TOKEN_PLACEHOLDER } from "./agent-setup";

describe("agent setup snippets", () => {
  it("fill in the site's MCP URL and the token for each client", () => {
    const setups = agentSetups("https://plan.example.com/", "atz_abc");
    expect(mcpUrl("https://plan.example.com/")).toBe("https://plan.example.com/mcp");
    const by = Object.fromEntries(setups.map((s) => [s.id, s.text]));
    expect(by["claude-code"]).toBe(
      'claude mcp add --transport http atomize https://plan.example.com/mcp --header "Authorization: Bearer atz_abc"',
    );
    expect(JSON.parse(by.cursor!)).toEqual({
      mcpServers: {
        atomize: { url: "https://plan.example.com/mcp", headers: { Authorization: "Bearer atz_abc" } },
      },
    });
    const vscode = JSON.parse(by.vscode!);
    expect(vscode.servers.atomize).toMatchObject({ type: "http", url: "https://plan.example.com/mcp" });
    // VS Code prompts for the token instead of keeping it in a file that may be committed.
    expect(by.vscode).not.toContain("atz_abc");
    expect(vscode.inputs[0]).toMatchObject({ id: "atomize-token", password: true });
    expect(by.cli).toContain("npx atomize login --url https://plan.example.com\n");
    // Codex reads the token from the environment only; Windsurf's key is serverUrl, Gemini CLI's httpUrl.
    expect(by.codex).toContain(
      '[mcp_servers.atomize]\nurl = "https://plan.example.com/mcp"\nbearer_token_env_var = "ATOMIZE_TOKEN"',
    );
    expect(by.codex).not.toMatch(/^bearer_token =/m);
    expect(JSON.parse(by.windsurf!)).toEqual({
      mcpServers: {
        atomize: { serverUrl: "https://plan.example.com/mcp", headers: { Authorization: "Bearer atz_abc" } },
      },
    });
    expect(JSON.parse(by.gemini!)).toEqual({
      mcpServers: {
        atomize: { httpUrl: "https://plan.example.com/mcp", headers: { Authorization: "Bearer atz_abc" } },
      },
    });
  });

  it("use a placeholder when no token was just made", () => {
    expect(agentSetups("http://localhost:8080")[0]!.text).toContain(`Bearer ${TOKEN_PLACEHOLDER}`);
  });
});

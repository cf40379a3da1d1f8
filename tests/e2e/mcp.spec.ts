import { callTool, connectMcp } from "../support/mcp-client";
import { expect, test } from "./fixtures";

test("make a write token in Settings, connect a coding agent with it, and watch its work arrive live", async ({
  page,
  origin,
  seededTask,
}) => {
  await page.goto("/settings?tab=api-tokens");
  await page.getByLabel("Name").fill("Claude Code");
  // The card asks for a write token, and the form offers one first (issue 40).
  await expect(page.getByLabel("Access")).toHaveValue("write");
  await page.getByRole("button", { name: "Make token" }).click();
  await expect(page.getByTestId("token-connection")).toContainText("Waiting for its first call");
  const token = await page.getByTestId("token-made").getByLabel("New token").inputValue();

  // The setup for each agent carries this site's MCP URL and the new token.
  const setup = page.getByRole("region", { name: "Connect a coding agent" });
  await expect(setup.getByTestId("setup-claude-code")).toHaveText(
    `claude mcp add --transport http atomize ${origin}/mcp --header "Authorization: Bearer ${token}"`,
  );
  await setup.getByRole("tab", { name: "Cursor" }).click();
  await expect(setup.getByTestId("setup-cursor")).toContainText(`"url": "${origin}/mcp"`);
  await setup.getByRole("tab", { name: "VS Code" }).click();
  await expect(setup.getByTestId("setup-vscode")).toContainText('"type": "http"');
  await setup.getByRole("tab", { name: "Codex" }).click();
  await expect(setup.getByTestId("setup-codex")).toContainText('bearer_token_env_var = "ATOMIZE_TOKEN"');
  await setup.getByRole("tab", { name: "Windsurf" }).click();
  await expect(setup.getByTestId("setup-windsurf")).toContainText(`"serverUrl": "${origin}/mcp"`);
  await setup.getByRole("tab", { name: "Gemini CLI" }).click();
  const gemini = setup.getByTestId("setup-gemini");
  await expect(gemini).toContainText(`"httpUrl": "${origin}/mcp"`);
  // Commands wrap: nothing in them is out of reach of a keyboard or a narrow screen.
  await setup.getByRole("tab", { name: "Claude Code" }).click();
  const claude = setup.getByTestId("setup-claude-code");
  expect(await claude.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // The agent, connected with the official MCP client, takes the project's next task.
  const agent = await connectMcp(origin, token);
  try {
    await page.goto(`/tasks/${seededTask.id}?tab=plan`);
    const nextUp = page.getByTestId("next-up");
    const next = await callTool(agent, "next_task", { project_id: seededTask.id });
    expect(next.task).not.toBeNull();
    // The set-up's check: the token made here has called.
    await page.goto("/settings?tab=api-tokens");
    await expect(
      page.getByTestId("tokens").getByRole("listitem").filter({ hasText: "Claude Code" }),
    ).not.toContainText("last used never");
    await page.goto(`/tasks/${seededTask.id}?tab=plan`);
    await expect(nextUp).toContainText(next.task.title);

    await callTool(agent, "add_comment", { task_id: next.task.id, text: "Picked up by the agent." });
    const done = await callTool(agent, "set_task_status", { task_id: next.task.id, status: "completed" });
    expect(done.task.status).toBe("completed");
    // The open Plan tab hears of it at once: the task leaves "Next up".
    await expect(nextUp).not.toContainText(next.task.title);

    // Its note is in the side panel, signed with the token's name.
    await page.goto(`/tasks/${seededTask.id}?tab=subtasks`);
    await page.getByRole("treeitem").filter({ hasText: next.task.title }).first().click();
    const notes = page.getByTestId("notes");
    await expect(notes).toContainText("Picked up by the agent.");
    await expect(notes).toContainText("(agent: Claude Code)");
  } finally {
    await agent.close();
  }
});

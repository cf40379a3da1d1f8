import { callTool, connectMcp } from "../support/mcp-client";
import { expect, expectAccessibleInBothThemes, test } from "./fixtures";

/**
 * Claims as a person sees them (issue 41): a coding agent claims the next task over MCP while the plan is
 * open; the tree marks it, its details name the agent, and Next up passes over it. The person claims
 * another task themselves, and lets the agent's go.
 */
test("an agent's claim shows live in the tree, the details and Next up; a person claims and lets go", async ({
  page,
  origin,
  seededTask,
}) => {
  const made = await page.request.post("/api/tokens", {
    data: { name: "Claude Code", scope: "write", expires_in_days: 30 },
    headers: { origin },
  });
  expect(made.status()).toBe(201);
  await page.goto(`/tasks/${seededTask.id}?tab=plan`);
  const nextUp = page.getByTestId("next-up");
  await expect(nextUp.getByRole("listitem").first()).toBeVisible();
  const firstTitle = (await nextUp.getByRole("listitem").first().locator("span").first().textContent())!;

  const agent = await connectMcp(origin, (await made.json()).token);
  try {
    const claimed = await callTool<{ task: { id: string; title: string } }>(agent, "claim_next_task", {
      project_id: seededTask.id,
    });
    // Next up passes over it, and says who has it.
    await expect(page.getByTestId("next-up-held")).toContainText(
      /1 ready task is taken: .*\(agent: Claude Code\)/,
    );
    await expect(nextUp.getByRole("listitem").filter({ hasText: firstTitle })).toHaveCount(0);

    // The tree marks it; its details name the agent and let the person free it.
    const tabs = page.getByRole("tablist", { name: "Task sections" });
    await tabs.getByRole("tab", { name: /Subtasks/ }).click();
    const row = page.locator(`[id="tree-${claimed.task.id}"]`);
    await expect(row.getByTestId("claim-mark")).toContainText(/Held by .* \(agent: Claude Code\) until/);
    await row.click();
    const claim = page.getByTestId("claim");
    await expect(claim).toContainText(/\(agent: Claude Code\) works on it until/);
    await expect(claim.getByRole("button", { name: "Claim" })).toHaveCount(0);
    await expectAccessibleInBothThemes(page, "a claimed task's details");
    await claim.getByRole("button", { name: "Let go" }).click();
    await expect(claim).toContainText("Nobody has claimed it.");
    await expect(row.getByTestId("claim-mark")).toHaveCount(0);

    // The person claims it themselves: theirs, marked as theirs.
    await claim.getByRole("button", { name: "Claim" }).click();
    await expect(claim).toContainText(/^You hold it until/);
    await expect(row.getByTestId("claim-mark")).toContainText(/You hold it until/);
    await tabs.getByRole("tab", { name: "Plan" }).click();
    await expect(nextUp.getByRole("listitem").filter({ hasText: "yours" })).toHaveCount(1);
    // The agent is not given it again.
    const next = await callTool<{ task: { id: string } | null }>(agent, "claim_next_task", {
      project_id: seededTask.id,
    });
    expect(next.task?.id).not.toBe(claimed.task.id);
  } finally {
    await agent.close();
  }
});

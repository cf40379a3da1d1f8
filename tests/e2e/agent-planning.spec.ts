import { callTool, connectMcp } from "../support/mcp-client";
import { expect, expectAccessibleInBothThemes, test } from "./fixtures";

type Step = { done: boolean; node_id: string; depth: number; title: string };

/** A scripted answer to a step: three subtasks, leaves (atomic) below the root's children. */
function answer(step: Step, titles: string[]) {
  const leaf = step.depth >= 1;
  return {
    node_id: step.node_id,
    subtasks: titles.map((title, i) => ({
      title,
      description: `Build ${title.toLowerCase()}`,
      complexity_score: leaf ? 3 : 6,
      story_points: leaf ? 2 : 8,
      implementation_details: "Where it goes and what it uses.",
      acceptance_criteria: ["It works as stated", "A test covers it"],
      requirement_ids: ["R1"],
      estimated_hours: leaf ? 6 : 30,
      estimate_low_hours: leaf ? 4 : 20,
      estimate_high_hours: leaf ? 10 : 45,
      depends_on: i > 0 ? [i] : [],
      atomic: leaf,
    })),
    ...(step.depth === 0
      ? { assessment: { complexity_score: 6, story_points: 13, rationale: "Three features." } }
      : {}),
  };
}

test("a coding agent plans a project through MCP with its own model while the open page follows it live", async ({
  page,
  origin,
  insertNewUser,
}) => {
  await insertNewUser("Ada Agent");
  await page.goto("/settings?tab=api-tokens");
  await page.getByLabel("Name").fill("Claude Code");
  await page.getByLabel("Access").selectOption("write");
  await page.getByRole("button", { name: "Make token" }).click();
  const token = await page.getByTestId("token-made").getByLabel("New token").inputValue();
  // Settings says what to ask the agent.
  await expect(page.getByTestId("agent-plan-request")).toContainText("Plan <description> in Atomize");
  // Which clients can lend their model through sampling, said where the agent is set up.
  await expect(page.getByTestId("agent-sampling")).toContainText("VS Code and Visual Studio only");

  const agent = await connectMcp(origin, token);
  try {
    const made = await callTool<{ id: string; status: string; step: Step }>(agent, "create_project", {
      description:
        "A book club site\n- Members propose books and vote on the next one\n- Organisers schedule meetings\nOut of scope: a mobile app",
      planner: "agent",
      max_depth: 2,
    });
    expect(made.status).toBe("processing");

    await page.goto(`/tasks/${made.id}`);
    await expect(page.getByTestId("planned-by")).toHaveText("Planned by your coding agent (Claude Code)");
    const progress = page.getByTestId("decomposition-progress");
    await expect(progress.locator("[data-phase]")).toHaveAttribute("data-phase", "running");
    // It says whom it waits for and how to go on, and offers no Complete while planning (issue 40).
    await expect(progress.locator("[data-phase]")).toHaveText("Waiting for your coding agent");
    await expect(progress.getByTestId("agent-waiting")).toContainText(
      `Continue planning ${made.id} in Atomize`,
    );
    await expect(page.getByRole("button", { name: "Mark Complete" })).toHaveCount(0);

    // The first answer arrives while the page is open: its parts appear in the tree without a reload.
    const tabs = page.getByRole("tablist", { name: "Task sections" });
    await tabs.getByRole("tab", { name: /Subtasks/ }).click();
    const tree = page.getByRole("tree", { name: "Task hierarchy" });
    const first = await callTool<{ next: Step }>(
      agent,
      "submit_subtasks",
      answer(made.step, ["Book proposals", "Voting", "Meeting calendar"]),
    );
    // The project opens as its first parts arrive (the Subtasks tab opens a node that gains its first children).
    await expect(page.getByText("3 subtasks · 4 shown")).toBeVisible();
    await page.getByRole("button", { name: "Expand All" }).click();
    for (const title of ["Book proposals", "Voting", "Meeting calendar"])
      await expect(tree.getByRole("treeitem", { name: new RegExp(title) })).toBeVisible();

    // The agent goes on to the end; the page reaches Complete by itself.
    let step = first.next;
    let n = 0;
    while (!step.done) {
      n++;
      const res = await callTool<{ next: Step }>(
        agent,
        "submit_subtasks",
        answer(step, [`Screen ${n}`, `Endpoint ${n}`, `Check ${n}`]),
      );
      step = res.next;
    }
    expect(n).toBe(3);
    await expect(progress.getByText("Complete", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/^12 subtasks · /)).toBeVisible();
    await page.getByRole("button", { name: "Expand All" }).click();
    await expect(tree.getByRole("treeitem", { name: /Endpoint 2/ })).toBeVisible();
    await expect(page.getByTestId("planned-by")).toHaveText("Planned by your coding agent (Claude Code)");
  } finally {
    await agent.close();
  }
});

test("a person sees the step their agent waits on, and can stop it (the outline finishes) or cancel it (issue 40)", async ({
  page,
  origin,
  insertNewUser,
}) => {
  await insertNewUser("Sam Stopper");
  await page.goto("/settings?tab=api-tokens");
  await page.getByLabel("Name").fill("Claude Code");
  await page.getByLabel("Access").selectOption("write");
  await page.getByRole("button", { name: "Make token" }).click();
  const token = await page.getByTestId("token-made").getByLabel("New token").inputValue();
  const agent = await connectMcp(origin, token);
  try {
    const description =
      "A book club site\n- Members propose books and vote on the next one\n- Organisers schedule meetings";
    const made = await callTool<{ id: string; step: Step }>(agent, "create_project", {
      description,
      planner: "agent",
      max_depth: 3,
    });
    await page.goto(`/tasks/${made.id}`);
    const progress = page.getByTestId("decomposition-progress");
    const waiting = progress.getByTestId("agent-waiting");
    await expect(waiting.getByTestId("agent-step")).toHaveText(
      "Waiting on step 1: splitting A book club site.",
    );
    // The agent answers while the page is open: the step it waits on follows.
    await callTool(
      agent,
      "submit_subtasks",
      answer(made.step, ["Book proposals", "Voting", "Meeting calendar"]),
    );
    await expect(waiting.getByTestId("agent-step")).toHaveText(
      "Waiting on step 2: splitting Book proposals (2 more after it, for now).",
    );

    // Stop asks once more, then the outline plans the rest and the plan completes.
    await waiting.getByRole("button", { name: "Stop" }).click();
    await expect(waiting.getByRole("group", { name: "Confirm" })).toContainText(
      "the offline planner plans the rest",
    );
    await expectAccessibleInBothThemes(page, "an agent's planning with Stop to confirm");
    await waiting.getByRole("button", { name: "Stop and finish with the outline" }).click();
    await expect(progress.getByText("Complete", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/You stopped your coding agent's planning/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);

    // Cancel: the project stops where it is and says why.
    const other = await callTool<{ id: string }>(agent, "create_project", {
      description,
      planner: "agent",
      max_depth: 3,
    });
    await page.goto(`/tasks/${other.id}`);
    await progress.getByTestId("agent-waiting").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Cancel planning" }).click();
    await expect(progress.getByRole("alert")).toContainText("You cancelled the planning.");
    await expect(progress.locator("[data-phase]")).toHaveAttribute("data-phase", "failed");
  } finally {
    await agent.close();
  }
});

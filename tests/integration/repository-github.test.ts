import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { flatten, type TreeNode, waitForStatus } from "../support/decomposition";
import { registerUser, TestClient } from "../support/http-client";
import { callTool, connectMcp } from "../support/mcp-client";
import { startTestServer, type TestServer } from "../support/server";

/**
 * A linked GitHub repository planned as the code it is (issue 42): the server maps it through GitHub's
 * API (the tree, then the blobs the map reads; every request checked against GitHub's own OpenAPI
 * description by the stand-in), plans a change with the detected stack and named files, and maps the same
 * tree once for every plan.
 */

let github: FakeGitHub;
let server: TestServer;
beforeAll(async () => {
  github = await startFakeGitHub();
  github.addRepo({
    owner: "acme",
    name: "billing",
    readme: "# Billing\n\nInvoices and payments for Acme's customers.",
    files: [
      {
        path: "package.json",
        content: JSON.stringify({
          engines: { node: ">=20" },
          dependencies: { express: "^4", pg: "^8" },
          devDependencies: { jest: "^29" },
        }),
      },
      {
        path: "src/routes/invoices.js",
        content:
          "router.get('/invoices', list);\nrouter.post('/invoices', create);\nexport function createInvoice() {}\n",
      },
      { path: "src/routes/customers.js", content: "router.get('/customers', list);\n" },
      { path: "src/services/payments.js", content: "export function recordPayment() {}\n" },
      { path: "tests/invoices.test.js", content: "test('lists invoices', () => {});\n" },
      {
        path: ".github/workflows/ci.yml",
        content: "steps:\n  - uses: actions/checkout@v4\n  - run: npm test\n",
      },
    ],
  });
  server = await startTestServer({ GITHUB_API_URL: github.url });
});
afterAll(async () => {
  expect(github?.openapiViolations ?? []).toEqual([]);
  await server?.stop();
  await github?.close();
});

describe("a linked GitHub repository's map", () => {
  it("plans a change to the code with its stack and files, and maps one tree once", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    const plan = async (description: string) => {
      const made = await client.post("/api/tasks", {
        description,
        tech_preferences: { github_repo: "https://github.com/acme/billing" },
      });
      const done = await waitForStatus(client, made.json.id, ["completed", "failed"]);
      expect(done.status).toBe("completed");
      return (await client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode & {
        implementation_details: string;
      };
    };
    const first = await plan(
      "Invoices get a due date\n- Set a due date when an invoice is created\n- List overdue invoices",
    );
    expect(first.implementation_details).toMatch(/^Detected: Node 20, Express, PostgreSQL, Jest\./);
    const leaves = flatten(first).filter((n) => n.children.length === 0) as (TreeNode & {
      files: { path: string }[];
    })[];
    expect(leaves.map((l) => l.description).join("\n")).not.toMatch(
      /choose the stack|set up the repository|first release/i,
    );
    const named = leaves.flatMap((l) => l.files.map((f) => f.path));
    expect(named).toContain("src/routes/invoices.js");
    expect(named).toContain("tests/invoices.test.js");
    const blobs = () => github.requests.filter((r) => r.path.includes("/git/blobs/")).length;
    const read = blobs();
    expect(read).toBeGreaterThan(0);
    // The same tree again: nothing but the tree is read.
    await plan("Customers get a credit limit");
    expect(blobs()).toBe(read);
  });

  it("gives a coding agent that plans it the paths nearest each task, and names its subtasks' files", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    const token = await client.post("/api/tokens", { name: "agent", scope: "write", expires_in_days: 30 });
    const agent = await connectMcp(server.url, token.json.token as string);
    try {
      const made = await callTool<{ id: string; step: { brief: string; node_id: string } }>(
        agent,
        "create_project",
        {
          description:
            "Invoices get a due date\n- Set a due date when an invoice is created\n- List overdue invoices",
          planner: "agent",
          github_repo: "https://github.com/acme/billing",
        },
      );
      expect(made.step.brief).toContain("Files of the repository most likely near this task");
      expect(made.step.brief).toContain("src/routes/invoices.js");
      expect(made.step.brief).toMatch(/Detected: Node 20, Express, PostgreSQL, Jest/);
      const subtask = (description: string) => ({
        description,
        complexity_score: 3,
        story_points: 2,
        implementation_details: "In the invoice routes",
        acceptance_criteria: ["It works", "It is tested"],
        requirement_ids: [],
        estimated_hours: 4,
        atomic: true,
      });
      await callTool(agent, "submit_subtasks", {
        project_id: made.id,
        node_id: made.step.node_id,
        assessment: {
          complexity_score: 4,
          story_points: 5,
          rationale: "A small change to the invoice routes",
        },
        subtasks: [subtask("Add a due date to invoices"), subtask("List overdue invoices")],
      });
      const tree = (await client.get(`/api/tasks/${made.id}/tree`)).json as TreeNode & {
        children: { files: { path: string }[] }[];
      };
      for (const child of tree.children)
        expect(child.files.map((f) => f.path)).toContain("src/routes/invoices.js");
    } finally {
      await agent.close();
    }
  });

  it("names files for what a re-plan adds", async () => {
    const client = new TestClient(server.url);
    await registerUser(client);
    const made = await client.post("/api/tasks", {
      description:
        "Invoices get a due date\n- Set a due date when an invoice is created\n- List overdue invoices",
      tech_preferences: { github_repo: "https://github.com/acme/billing" },
    });
    await waitForStatus(client, made.json.id, ["completed"]);
    const plan = (await client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode;
    // A leaf deleted by hand: the re-plan adds it back, and what it adds names its files.
    const gone = flatten(plan).find((n) => n.children.length === 0 && /overdue/i.test(n.description))!;
    expect((await client.request("DELETE", `/api/tasks/${gone.id}`)).status).toBe(200);
    const res = await client.post(`/api/tasks/${made.json.id}/replan`, {});
    expect(res.status, res.text).toBe(200);
    const adds = (res.json.changes as { op: string }[]).filter((c) => c.op === "add");
    expect(adds.length).toBeGreaterThan(0);
    const accepted = await client.post(
      `/api/tasks/${made.json.id}/replan/${res.json.proposal_id}/accept`,
      {},
    );
    expect(accepted.status, accepted.text).toBe(200);
    const after = flatten(
      (await client.get(`/api/tasks/${made.json.id}/tree`)).json as TreeNode,
    ) as (TreeNode & {
      files: { path: string }[];
    })[];
    const back = after.find((n) => n.children.length === 0 && /overdue/i.test(n.description))!;
    expect(back.id).not.toBe(gone.id);
    expect(back.files.map((f) => f.path)).toContain("src/routes/invoices.js");
  });
});

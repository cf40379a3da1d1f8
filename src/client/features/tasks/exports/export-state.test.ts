import { describe, expect, it } from "vitest";
import type { ExportMessage } from "../../../../shared/schemas/integrations";
import {
  dialogTitle,
  EXPORT_CONNECTION_ERROR,
  type ExportProgressState,
  exportReducer,
  failureToast,
  humanizeStep,
  initialExportState,
  safeUrl,
  successToast,
} from "./export-state";

const run = (kind: "jira" | "trello" | "github", messages: ExportMessage[], from = initialExportState) =>
  messages.reduce<ExportProgressState>(
    (state, message) => exportReducer(state, { type: "message", kind, message }),
    from,
  );

describe("humanizeStep", () => {
  it("names the export steps", () => {
    expect(humanizeStep("project_creation")).toBe("Creating project");
    expect(humanizeStep("issue_creation")).toBe("Creating issues");
    expect(humanizeStep("label_update")).toBe("Updating labels");
    expect(humanizeStep("board_creation")).toBe("Creating board");
    expect(humanizeStep("card_creation")).toBe("Creating cards");
    expect(humanizeStep("something_new")).toBe("Something new");
    expect(humanizeStep(null)).toBe("Starting");
  });
});

describe("exportReducer", () => {
  it("runs through progress to success, never going backwards", () => {
    const s = run("jira", [
      { type: "connection_established", export_id: "x" },
      { type: "jira.export.progress", step: "project_creation", progress: 10, message: "Creating" },
      { type: "jira.export.progress", step: "issue_creation", progress: 40, message: "Created 3" },
      { type: "jira.export.progress", step: "issue_creation", progress: 30, message: "stale" },
    ]);
    expect(s.phase).toBe("running");
    expect(s.progress).toBe(40);
    expect(s.step).toBe("issue_creation");
    const done = run(
      "jira",
      [
        {
          type: "jira.export.success",
          issues_created: 12,
          project_key: "ATOMIZE",
          project_url: "https://acme.atlassian.net/browse/ATOMIZE",
          confluence_pages: 0,
          warnings: ["This Atlassian site has no Confluence, so the pages were not written.", 7],
        },
      ],
      s,
    );
    expect(done.phase).toBe("success");
    expect(done.progress).toBe(100);
    expect(done.result).toEqual({
      count: 12,
      name: "ATOMIZE",
      url: "https://acme.atlassian.net/browse/ATOMIZE",
      confluencePages: 0,
      // Only text is shown: a warning that is not a string is dropped.
      warnings: ["This Atlassian site has no Confluence, so the pages were not written."],
    });
    expect(successToast("jira", done.result!)).toBe("Successfully created JIRA project with 12 issues");
    expect(dialogTitle("jira", done.phase)).toBe("Export Complete");
  });

  it("reads Trello and GitHub results", () => {
    const t = run("trello", [
      {
        type: "trello.export.success",
        cards_created: 7,
        board_name: "B",
        board_url: "https://trello.com/b/1",
      },
    ]);
    expect(successToast("trello", t.result!)).toBe("Successfully created Trello board with 7 cards");
    expect(t.result?.url).toBe("https://trello.com/b/1");
    const g = run("github", [
      {
        type: "github.export.success",
        issues_created: 4,
        repository: "acme/yoga",
        repository_url: "https://github.com/acme/yoga/issues",
      },
    ]);
    expect(g.result).toMatchObject({ count: 4, name: "acme/yoga" });
  });

  it("fails with the message, or 'Export failed'", () => {
    const s = run("trello", [{ type: "trello.export.error", message: "Board limit reached" }]);
    expect(s.phase).toBe("error");
    expect(s.error).toBe("Board limit reached");
    expect(dialogTitle("trello", s.phase)).toBe("Export Failed");
    expect(run("trello", [{ type: "trello.export.error", message: "" }]).error).toBe("Export failed");
    expect(failureToast("trello", "Board limit reached")).toBe("Trello export failed: Board limit reached");
    expect(failureToast("jira", "")).toBe("JIRA export failed: Unknown error");
  });

  it("keeps the error on a replayed progress message, and runs again after a retry", () => {
    const failed = run("jira", [
      { type: "jira.export.progress", step: "issue_creation", progress: 40, message: "x" },
      { type: "jira.export.error", message: "boom" },
    ]);
    expect(
      run("jira", [{ type: "jira.export.progress", step: "a", progress: 40, message: "" }], failed).phase,
    ).toBe("error");
    const retrying = exportReducer(failed, { type: "retrying" });
    expect(retrying.phase).toBe("running");
    expect(retrying.progress).toBe(40);
    const again = run(
      "jira",
      [{ type: "jira.export.progress", step: "issue_creation", progress: 50, message: "" }],
      retrying,
    );
    expect(again.phase).toBe("running");
    expect(again.progress).toBe(50);
  });

  it("reports a lost connection only while the export runs, and recovers on reconnect", () => {
    const running = run("jira", [{ type: "connection_established", export_id: "x" }]);
    const lost = exportReducer(running, { type: "connection_error" });
    expect(lost.phase).toBe("error");
    expect(lost.error).toBe(EXPORT_CONNECTION_ERROR);
    const back = run("jira", [{ type: "connection_established", export_id: "x" }], lost);
    expect(back.phase).toBe("running");
    const done = run("jira", [{ type: "jira.export.success", issues_created: 1 }]);
    expect(exportReducer(done, { type: "connection_error" })).toBe(done);
  });

  it("ignores links that are not http(s)", () => {
    expect(safeUrl("javascript:alert(1)")).toBeNull();
    expect(safeUrl("https://x.test/a")).toBe("https://x.test/a");
    expect(
      run("trello", [{ type: "trello.export.success", board_url: "javascript:alert(1)" }]).result?.url,
    ).toBeNull();
  });
});

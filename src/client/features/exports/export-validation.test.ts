import { describe, expect, it } from "vitest";
import {
  fitBoardName,
  JIRA_KEY_FORMAT_HINT,
  JIRA_MESSAGES,
  type JiraExportForm,
  projectKeyHint,
  repositoryFromUrl,
  sanitizeProjectKey,
  TRELLO_MESSAGES,
  validateJiraExport,
  validateRepository,
  validateTrelloExport,
} from "./export-validation";

const valid: JiraExportForm = {
  projectName: "Atomize Yoga",
  projectKey: "ATOMIZE",
  jiraUrl: "https://acme.atlassian.net",
  userEmail: "dev@example.com",
  apiToken: "secret",
  accountId: "5b10ac8d82e05b22cc7d4ef5",
};

describe("sanitizeProjectKey", () => {
  it("strips, uppercases and caps at 10", () => {
    expect(sanitizeProjectKey("my-proj 1")).toBe("MYPROJ1");
    expect(sanitizeProjectKey("abcdefghijklmnop")).toBe("ABCDEFGHIJ");
    expect(sanitizeProjectKey("ä_ü!")).toBe("");
  });

  it("hints while the key is not 2-10 characters", () => {
    expect(projectKeyHint("A")).toBe(JIRA_KEY_FORMAT_HINT);
    expect(projectKeyHint("")).toBe(JIRA_KEY_FORMAT_HINT);
    expect(projectKeyHint("AB")).toBeNull();
    expect(projectKeyHint("ABCDEFGHIJ")).toBeNull();
  });
});

describe("validateJiraExport (checks in order)", () => {
  const first = (over: Partial<JiraExportForm>, opts?: { tokenStored?: boolean }) =>
    validateJiraExport({ ...valid, ...over }, opts)?.message ?? null;

  it("passes a complete form", () => {
    expect(first({})).toBeNull();
  });

  it("reports each check with its own message, the first failing one winning", () => {
    const empty = {
      projectName: "",
      projectKey: "",
      jiraUrl: "",
      userEmail: "",
      apiToken: "",
      accountId: "",
    };
    expect(first(empty)).toBe(JIRA_MESSAGES.projectName);
    expect(first({ ...empty, projectName: "P" })).toBe(JIRA_MESSAGES.projectKey);
    expect(first({ ...empty, projectName: "P", projectKey: "A" })).toBe(JIRA_MESSAGES.projectKeyFormat);
    expect(first({ ...empty, projectName: "P", projectKey: "AB" })).toBe(JIRA_MESSAGES.jiraUrl);
    expect(first({ ...empty, projectName: "P", projectKey: "AB", jiraUrl: "x" })).toBe(JIRA_MESSAGES.email);
    expect(first({ ...empty, projectName: "P", projectKey: "AB", jiraUrl: "x", userEmail: "bad" })).toBe(
      JIRA_MESSAGES.emailFormat,
    );
    expect(first({ ...empty, projectName: "P", projectKey: "AB", jiraUrl: "x", userEmail: "a@b.co" })).toBe(
      JIRA_MESSAGES.apiToken,
    );
    expect(
      first({
        ...empty,
        projectName: "P",
        projectKey: "AB",
        jiraUrl: "x",
        userEmail: "a@b.co",
        apiToken: "t",
      }),
    ).toBe(JIRA_MESSAGES.accountId);
    // The URL's format is checked last.
    expect(first({ jiraUrl: "not a url" })).toBe(JIRA_MESSAGES.jiraUrlFormat);
    expect(first({ jiraUrl: "ftp://acme.atlassian.net" })).toBe(JIRA_MESSAGES.jiraUrlFormat);
  });

  it("does not require a token when one is stored", () => {
    expect(first({ apiToken: "" }, { tokenStored: true })).toBeNull();
    expect(first({ apiToken: "" })).toBe(JIRA_MESSAGES.apiToken);
  });

  it("names the field that failed", () => {
    expect(validateJiraExport({ ...valid, accountId: " " })?.field).toBe("accountId");
  });
});

describe("validateTrelloExport", () => {
  it("requires a board name of at most 30 characters, then credentials", () => {
    expect(validateTrelloExport("  ", { credentialsAvailable: true })).toBe(TRELLO_MESSAGES.boardName);
    expect(validateTrelloExport("x".repeat(31), { credentialsAvailable: true })).toBe(
      TRELLO_MESSAGES.boardNameTooLong,
    );
    expect(validateTrelloExport("Board", { credentialsAvailable: false })).toBe(TRELLO_MESSAGES.credentials);
    expect(validateTrelloExport("x".repeat(30), { credentialsAvailable: true })).toBeNull();
  });

  it("fits a long default name into 30 characters", () => {
    expect(fitBoardName("Atomize Build a yoga studio booking si")).toBe("Atomize Build a yoga studio bo");
    expect(fitBoardName("Atomize Todo")).toBe("Atomize Todo");
  });
});

describe("repository", () => {
  it("reads owner/name from a GitHub URL", () => {
    expect(repositoryFromUrl("https://github.com/acme/yoga")).toBe("acme/yoga");
    expect(repositoryFromUrl("https://github.com/acme/yoga.git")).toBe("acme/yoga");
    expect(repositoryFromUrl("https://github.com/acme/yoga/")).toBe("acme/yoga");
    expect(repositoryFromUrl("acme/yoga")).toBe("acme/yoga");
    expect(repositoryFromUrl(null)).toBe("");
    expect(repositoryFromUrl("https://gitlab.com/acme/yoga")).toBe("");
  });

  it("validates owner/name", () => {
    expect(validateRepository("acme/yoga")).toBeNull();
    expect(validateRepository("")).not.toBeNull();
    expect(validateRepository("acme")).not.toBeNull();
    expect(validateRepository("https://github.com/acme/yoga")).not.toBeNull();
  });
});

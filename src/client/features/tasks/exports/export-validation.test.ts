import { describe, expect, it } from "vitest";
import {
  fitBoardName,
  JIRA_KEY_FORMAT_HINT,
  type JiraExportForm,
  jiraExportConfigOf,
  jiraExportErrors,
  projectKeyHint,
  repositoryFromUrl,
  sanitizeProjectKey,
} from "./export-validation";

const valid: JiraExportForm = {
  projectName: "Atomize Yoga",
  projectKey: "ATOMIZE",
  jiraUrl: "https://acme.atlassian.net",
  userEmail: "dev@example.com",
  apiToken: "secret",
  accountId: "5b10ac8d82e05b22cc7d4ef5",
  existingProject: false,
  confluenceSpaceKey: "",
};

describe("sanitizeProjectKey", () => {
  it("strips, uppercases and caps at 10", () => {
    expect(sanitizeProjectKey("my-proj 1")).toBe("MYPROJ1");
    expect(sanitizeProjectKey("abcdefghijklmnop")).toBe("ABCDEFGHIJ");
    expect(sanitizeProjectKey("ä_ü!")).toBe("");
  });

  it("hints while the key does not match the schema's pattern", () => {
    expect(projectKeyHint("A")).toBe(JIRA_KEY_FORMAT_HINT);
    expect(projectKeyHint("")).toBe(JIRA_KEY_FORMAT_HINT);
    expect(projectKeyHint("1AB")).toBe(JIRA_KEY_FORMAT_HINT);
    expect(projectKeyHint("AB")).toBeNull();
    expect(projectKeyHint("ABCDEFGHIJ")).toBeNull();
  });
});

describe("jiraExportErrors (the export's and the connection's schemas)", () => {
  const errors = (over: Partial<JiraExportForm>, opts?: { tokenStored?: boolean }) =>
    jiraExportErrors({ ...valid, ...over }, opts);

  it("passes a complete form", () => {
    expect(errors({})).toEqual({});
  });

  it("gives the first message of every field that fails", () => {
    expect(
      errors({ projectName: " ", projectKey: "", jiraUrl: "", userEmail: "", apiToken: "", accountId: "" }),
    ).toEqual({
      projectName: "Project name is required",
      projectKey: "Project key is required",
      jiraUrl: "JIRA URL is required",
      userEmail: "Your email is required",
      apiToken: "API token is required",
      accountId: "Account ID is required",
    });
    expect(errors({ projectKey: "A", userEmail: "bad" })).toEqual({
      projectKey: "Project key must be 2-10 uppercase alphanumeric characters (e.g., PROJ, TEST123)",
      userEmail: "Invalid email format",
    });
  });

  it("does not require a token when one is stored", () => {
    expect(errors({ apiToken: "" }, { tokenStored: true })).toEqual({});
    expect(errors({ apiToken: "" })).toEqual({ apiToken: "API token is required" });
  });

  it("sends trimmed values, and no token when none was typed", () => {
    expect(jiraExportConfigOf({ ...valid, projectName: " P ", apiToken: " " })).toEqual({
      project_name: "P",
      project_key: "ATOMIZE",
      jira_url: "https://acme.atlassian.net",
      user_email: "dev@example.com",
      account_id: "5b10ac8d82e05b22cc7d4ef5",
    });
    expect(
      jiraExportConfigOf({ ...valid, existingProject: true, confluenceSpaceKey: " DOCS " }),
    ).toMatchObject({ existing_project: true, confluence_space_key: "DOCS" });
  });
});

describe("fitBoardName", () => {
  it("fits a long default name into 30 characters, never cutting an emoji in two", () => {
    expect(fitBoardName("Atomize Build a yoga studio booking si")).toBe("Atomize Build a yoga studio bo");
    expect(fitBoardName("Atomize Todo")).toBe("Atomize Todo");
    const emoji = fitBoardName(`Atomize ${"🧘".repeat(20)}`);
    expect(emoji.length).toBeLessThanOrEqual(30);
    expect(emoji).toBe(`Atomize ${"🧘".repeat(11)}`);
  });
});

describe("repositoryFromUrl", () => {
  it("reads owner/name from a GitHub URL or an owner/name string", () => {
    expect(repositoryFromUrl("https://github.com/acme/yoga")).toBe("acme/yoga");
    expect(repositoryFromUrl("https://github.com/acme/yoga.git")).toBe("acme/yoga");
    expect(repositoryFromUrl("https://github.com/acme/yoga/")).toBe("acme/yoga");
    expect(repositoryFromUrl(" acme/yoga ")).toBe("acme/yoga");
    expect(repositoryFromUrl(null)).toBe("");
    expect(repositoryFromUrl("https://gitlab.com/acme/yoga")).toBe("");
  });
});

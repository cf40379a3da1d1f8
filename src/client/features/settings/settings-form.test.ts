import { describe, expect, it } from "vitest";
import {
  credentialErrors,
  credentialsToSend,
  type IntegrationsForm,
  missingCredentialsHint,
} from "./settings-form";

const form = (
  over: { trello?: Partial<IntegrationsForm["trello"]>; jira?: Partial<IntegrationsForm["jira"]> } = {},
) =>
  ({
    trello: { enabled: true, apiKey: "k", token: "t", ...over.trello },
    jira: {
      enabled: true,
      jiraUrl: "https://acme.atlassian.net",
      userEmail: "a@b.co",
      apiToken: "tok",
      accountId: "5b10",
      ...over.jira,
    },
  }) satisfies IntegrationsForm;

describe("credentialsToSend", () => {
  it("sends both when enabled and complete, trimmed", () => {
    expect(credentialsToSend(form({ trello: { apiKey: " k " } }))).toEqual({
      trello: { api_key: "k", token: "t" },
      jira: {
        jira_url: "https://acme.atlassian.net",
        user_email: "a@b.co",
        api_token: "tok",
        account_id: "5b10",
      },
    });
  });

  it("sends Trello only when enabled and both key and token are filled", () => {
    expect(credentialsToSend(form({ trello: { enabled: false } })).trello).toBeUndefined();
    expect(credentialsToSend(form({ trello: { token: " " } })).trello).toBeUndefined();
    expect(credentialsToSend(form({ trello: { apiKey: "" } })).trello).toBeUndefined();
  });

  it("sends JIRA only when enabled and all four are filled", () => {
    expect(credentialsToSend(form({ jira: { enabled: false } })).jira).toBeUndefined();
    for (const field of ["jiraUrl", "userEmail", "apiToken", "accountId"] as const) {
      expect(credentialsToSend(form({ jira: { [field]: "" } })).jira).toBeUndefined();
    }
  });
});

describe("missingCredentialsHint", () => {
  it("hints only for an enabled, unconnected, incomplete integration", () => {
    expect(missingCredentialsHint("trello", form({ trello: { token: "" } }), false)).toMatch(/both/);
    expect(missingCredentialsHint("trello", form({ trello: { token: "" } }), true)).toBeNull();
    expect(
      missingCredentialsHint("trello", form({ trello: { enabled: false, token: "" } }), false),
    ).toBeNull();
    expect(missingCredentialsHint("jira", form({ jira: { accountId: "" } }), false)).toMatch(/all four/);
    expect(missingCredentialsHint("jira", form(), false)).toBeNull();
  });
});

describe("credentialErrors", () => {
  it("checks what is about to be sent with the schemas the server saves it with", () => {
    expect(credentialErrors(credentialsToSend(form()))).toEqual({ trello: {}, jira: {} });
    expect(credentialErrors(credentialsToSend(form({ jira: { userEmail: "not-an-email" } })))).toEqual({
      trello: {},
      jira: { userEmail: "Invalid email format" },
    });
    expect(credentialErrors(credentialsToSend(form({ trello: { token: "t".repeat(501) } }))).trello).toEqual({
      token: expect.any(String),
    });
  });
});

import { adminOperations } from "./admin";
import { agentOperations } from "./agent";
import { authOperations } from "./auth";
import {
  blogOperations,
  blogPostAdminOperations,
  blogSubscriptionAdminOperations,
  outboxOperation,
} from "./blog";
import type { AnyOperation } from "./define";

export type OperationGroup = {
  id: string;
  tag: string;
  description: string;
  operations: Record<string, AnyOperation>;
};

import {
  exportOperations,
  githubOperations,
  integrationOperations,
  settingsOperations,
} from "./integrations";
import { modelProviderOperations } from "./model-providers";
import { taskOperations } from "./tasks";
import { tokenOperations } from "./tokens";

/**
 * Every declared operation, grouped as the API reference shows them; `id` is the group's tRPC path and
 * prefixes its operation ids. The REST facade registers their routes in this order (within a group, a
 * fixed path comes before a parameter at the same place).
 */
export const operationGroups: OperationGroup[] = [
  { id: "auth", tag: "Auth", description: "Accounts, sign-in and sessions.", operations: authOperations },
  { id: "tasks", tag: "Tasks", description: "Tasks, their plans and reviews.", operations: taskOperations },
  {
    id: "agent",
    tag: "Agents and scripts",
    description: "The plan as a coding agent or a script reads it (the MCP server and the CLI use the same).",
    operations: agentOperations,
  },
  { id: "settings", tag: "Settings", description: "General settings.", operations: settingsOperations },
  {
    id: "tokens",
    tag: "Tokens",
    description: "Personal access tokens for scripts, the CLI and coding agents.",
    operations: tokenOperations,
  },
  {
    id: "integrations",
    tag: "Integrations",
    description: "Stored JIRA and Trello credentials.",
    operations: integrationOperations,
  },
  { id: "github", tag: "GitHub", description: "The GitHub connection.", operations: githubOperations },
  {
    id: "exports",
    tag: "Exports",
    description: "Exports to JIRA, Trello and GitHub.",
    operations: exportOperations,
  },
  {
    id: "modelProviders",
    tag: "AI model",
    description: "Model providers and the planner.",
    operations: modelProviderOperations,
  },
  { id: "blog", tag: "Blog", description: "Published posts and subscriptions.", operations: blogOperations },
  {
    id: "blog.admin.posts",
    tag: "Blog administration",
    description: "Posts, subscriptions and the outbox, for admins.",
    operations: blogPostAdminOperations,
  },
  {
    id: "blog.admin.subscriptions",
    tag: "Blog administration",
    description: "",
    operations: blogSubscriptionAdminOperations,
  },
  { id: "blog.admin", tag: "Blog administration", description: "", operations: { outbox: outboxOperation } },
  { id: "admin", tag: "Administration", description: "Accounts, for admins.", operations: adminOperations },
];

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
import { teamOperations } from "./teams";

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
import { requirementOperations } from "./requirements";
import { taskOperations } from "./tasks";
import { tokenOperations } from "./tokens";

/** A group of operations: a tag of the API reference, and the operations under one tRPC path. */
const group = <O extends Record<string, AnyOperation>>(tag: string, description: string, operations: O) => ({
  tag,
  description,
  operations,
});

/**
 * Every declared operation, grouped as the API reference shows them. A key is the group's tRPC path
 * (`blog.admin.posts` is `trpc.blog.admin.posts.*`) and prefixes its operation ids; the tRPC router
 * (trpc/router.ts), the REST facade (rest/api.ts), the API reference and the MCP tools are all built from
 * this one registry. The REST facade registers the routes in this order (within a group, a fixed path
 * comes before a parameter at the same place).
 */
export const operationRegistry = {
  auth: group("Auth", "Accounts, sign-in and sessions.", authOperations),
  tasks: group("Tasks", "Tasks, their plans and reviews.", { ...taskOperations, ...requirementOperations }),
  agent: group(
    "Agents and scripts",
    "The plan as a coding agent or a script reads it (the MCP server and the CLI use the same).",
    agentOperations,
  ),
  teams: group("Teams", "Teams, their members and roles, and invitations.", teamOperations),
  settings: group("Settings", "General settings.", settingsOperations),
  tokens: group("Tokens", "Personal access tokens for scripts, the CLI and coding agents.", tokenOperations),
  integrations: group("Integrations", "Stored JIRA and Trello credentials.", integrationOperations),
  github: group("GitHub", "The GitHub connection.", githubOperations),
  exports: group("Exports", "Exports to JIRA, Trello and GitHub.", exportOperations),
  modelProviders: group("AI model", "Model providers and the planner.", modelProviderOperations),
  blog: group("Blog", "Published posts and subscriptions.", blogOperations),
  "blog.admin.posts": group(
    "Blog administration",
    "Posts, subscriptions and the outbox, for admins.",
    blogPostAdminOperations,
  ),
  "blog.admin.subscriptions": group("Blog administration", "", blogSubscriptionAdminOperations),
  "blog.admin": group("Blog administration", "", { outbox: outboxOperation }),
  admin: group("Administration", "Accounts, for admins.", adminOperations),
};

export type OperationRegistry = typeof operationRegistry;

/** The registry as a list, in its order (the REST facade's and the API reference's). */
export const operationGroups: OperationGroup[] = Object.entries(operationRegistry).map(([id, g]) => ({
  id,
  ...g,
}));

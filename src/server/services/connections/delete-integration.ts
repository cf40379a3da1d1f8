import type { Deps } from "../../deps";
import { deleteCredential } from "../../integrations/credentials";
import { getIntegrationStatus } from "./get-integration-status";

export async function deleteIntegration(deps: Deps, userId: string, provider: "trello" | "jira") {
  await deleteCredential(deps, userId, provider);
  return getIntegrationStatus(deps, userId);
}

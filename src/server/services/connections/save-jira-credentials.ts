import type { z } from "zod";
import type { jiraCredentialsInput } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { jiraSiteOrigin } from "../../integrations/allowed-origin";
import { saveCredential } from "../../integrations/credentials";
import { jiraFor } from "./connections";
import { getIntegrationStatus } from "./get-integration-status";

/** POST /jira/credentials: the site must be allowed, the account must answer /myself. */
export async function saveJiraCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof jiraCredentialsInput>,
) {
  const origin = jiraSiteOrigin(input.jira_url, deps.config.JIRA_ALLOWED_ORIGINS, deps.config);
  const connection = await jiraFor(deps, origin, input.user_email, input.api_token);
  await saveCredential(
    deps,
    userId,
    "jira",
    { user_email: input.user_email, api_token: input.api_token },
    {
      jira_url: origin,
      user_email: input.user_email,
      account_id: input.account_id,
      scoped_token: connection.cloudId !== null,
    },
  );
  return (await getIntegrationStatus(deps, userId)).jira;
}

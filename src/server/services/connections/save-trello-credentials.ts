import type { z } from "zod";
import type { trelloCredentialsInput } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { saveCredential } from "../../integrations/credentials";
import { trelloFor } from "./connections";
import { getIntegrationStatus } from "./get-integration-status";

/** POST /trello/credentials: checked against Trello, then stored encrypted. */
export async function saveTrelloCredentials(
  deps: Deps,
  userId: string,
  input: z.output<typeof trelloCredentialsInput>,
) {
  // The key and token as the exports send them (integrations/trello/auth.ts): Trello's OAuth header,
  // never the query string, so the token is in no URL. tests/integration/exports-trello-site.test.ts
  // checks that this check and the export present them the same way.
  const trello = trelloFor(
    deps,
    input.api_key,
    input.token,
    "Trello rejected the API key or token. Check both in your Trello developer settings.",
  );
  const res = await trello.request("GET", "/1/members/me", {
    query: { fields: "username,fullName" },
  });
  const me = res.body as { username?: string };
  await saveCredential(
    deps,
    userId,
    "trello",
    { api_key: input.api_key, token: input.token },
    { username: me.username ?? null },
  );
  return (await getIntegrationStatus(deps, userId)).trello;
}

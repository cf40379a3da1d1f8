import type { Deps } from "../../deps";
import { listOutbox } from "../../integrations/mail/mailer";

/** The admin's view of outgoing mail: the transport in use and the newest messages (optionally to one address). */
export async function adminOutbox(
  deps: Pick<Deps, "database" | "mailer">,
  opts: { to?: string | undefined; limit: number },
) {
  return { transport: deps.mailer.transport, ...(await listOutbox(deps.database, opts)) };
}

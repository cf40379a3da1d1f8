import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { DEV_BYPASS_EMAIL, findUserByEmail } from "./accounts";
import { createSession, type IssuedTokens, type SessionMeta, type UserRow } from "./sessions";

/** Development-only sign-in: an admin on the enterprise tier, limit 1000, nothing used. */
export async function devBypass(
  deps: Deps,
  meta: SessionMeta = {},
): Promise<{ user: UserRow; tokens: IssuedTokens }> {
  if (deps.config.NODE_ENV !== "development") throw new AppError("NOT_FOUND", "Not found");
  let user = await findUserByEmail(deps, DEV_BYPASS_EMAIL);
  if (!user) {
    [user] = await deps.db
      .insert(users)
      .values({
        email: DEV_BYPASS_EMAIL,
        username: DEV_BYPASS_EMAIL,
        fullName: "Development User",
        provider: "dev",
        role: "admin",
        subscriptionTier: "enterprise",
        subscriptionStatus: "active",
        monthlyTaskLimit: 1000,
        tasksCreatedThisMonth: 0,
      })
      .returning();
  }
  const tokens = await createSession(deps, user!.id, meta);
  return { user: user!, tokens };
}

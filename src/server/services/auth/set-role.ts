import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { findUserByEmail } from "./accounts";
import type { UserRow } from "./sessions";

export async function setRole(
  deps: Pick<Deps, "db">,
  email: string,
  role: "user" | "admin",
): Promise<UserRow> {
  const user = await findUserByEmail(deps, email);
  if (!user) throw new AppError("NOT_FOUND", `No account with e-mail ${email}`);
  const [updated] = await deps.db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

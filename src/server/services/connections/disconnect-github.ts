import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { deleteCredential, readCredential } from "../../integrations/credentials";
import type { UserRow } from "../auth/sessions";

export async function disconnectGithub(deps: Deps, user: UserRow) {
  const stored = await readCredential(deps, user.id, "github");
  if (!stored) throw new AppError("NOT_FOUND", "No GitHub account is connected");
  await deleteCredential(deps, user.id, "github");
  return { detail: "GitHub account disconnected" };
}

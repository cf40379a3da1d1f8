import type { Claimer } from "./claims";

/** The claimer a call comes from: its user, and the token when a script or an agent made it. */
export function claimerOf(
  user: { id: string; fullName: string; username: string },
  apiToken: { id: string; name: string } | null,
): Claimer {
  return {
    userId: user.id,
    name: user.fullName.trim() || user.username,
    token: apiToken ? { id: apiToken.id, name: apiToken.name } : null,
  };
}

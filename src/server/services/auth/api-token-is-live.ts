import type { Deps } from "../../deps";
import { liveApiTokenIds } from "./live-api-token-ids";

export async function apiTokenIsLive(deps: Pick<Deps, "db">, tokenId: string): Promise<boolean> {
  return (await liveApiTokenIds(deps, [tokenId])).has(tokenId);
}

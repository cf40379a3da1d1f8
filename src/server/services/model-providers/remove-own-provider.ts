import type { ModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { deleteProvider } from "../../engine/planners/provider-store";
import type { UserRow } from "../auth/sessions";
import { own, viewOf } from "./model-providers";

export async function removeOwnProvider(deps: Deps, user: UserRow): Promise<ModelProviderView> {
  if (await deleteProvider(deps, own(user)))
    deps.log.info("model provider removed", { owner: "user", userId: user.id });
  return viewOf(null);
}

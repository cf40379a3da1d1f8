import type { InstanceModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { deleteProvider } from "../../engine/planners/provider-store";
import type { UserRow } from "../auth/sessions";
import { INSTANCE, refuseWhenEnvironmentSets, requireAdmin, viewOf } from "./model-providers";

export async function removeInstanceProvider(deps: Deps, user: UserRow): Promise<InstanceModelProviderView> {
  requireAdmin(user);
  refuseWhenEnvironmentSets(deps);
  if (await deleteProvider(deps, INSTANCE))
    deps.log.info("model provider removed", { owner: "instance", userId: user.id });
  return { ...viewOf(null), environment: null };
}

import type { InstanceModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import {
  INSTANCE,
  type ProviderSettings,
  refuseWhenEnvironmentSets,
  requireAdmin,
  save,
} from "./model-providers";

export async function saveInstanceProvider(
  deps: Deps,
  user: UserRow,
  input: ProviderSettings,
): Promise<InstanceModelProviderView> {
  requireAdmin(user);
  refuseWhenEnvironmentSets(deps);
  return { ...(await save(deps, user, INSTANCE, input)), environment: null };
}

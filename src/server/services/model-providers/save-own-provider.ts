import type { ModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { own, type ProviderSettings, save } from "./model-providers";

export function saveOwnProvider(
  deps: Deps,
  user: UserRow,
  input: ProviderSettings,
): Promise<ModelProviderView> {
  return save(deps, user, own(user), input);
}

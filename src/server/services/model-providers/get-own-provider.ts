import type { ModelProviderView } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import { readProvider } from "../../engine/planners/provider-store";
import type { UserRow } from "../auth/sessions";
import { own, viewOf } from "./model-providers";

// ---- the caller's own provider --------------------------------------------------------------------

export async function getOwnProvider(deps: Deps, user: UserRow): Promise<ModelProviderView> {
  return viewOf(await readProvider(deps, own(user)));
}

import type { ConnectionTestResult } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { own, type ProviderSettings, test } from "./model-providers";

export function testOwnProvider(
  deps: Deps,
  user: UserRow,
  input: ProviderSettings,
): Promise<ConnectionTestResult> {
  return test(deps, user, own(user), input);
}

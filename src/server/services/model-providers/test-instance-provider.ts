import type { ConnectionTestResult } from "../../../shared/schemas/model-providers";
import type { Deps } from "../../deps";
import type { UserRow } from "../auth/sessions";
import { INSTANCE, type ProviderSettings, requireAdmin, test } from "./model-providers";

export async function testInstanceProvider(
  deps: Deps,
  user: UserRow,
  input: ProviderSettings,
): Promise<ConnectionTestResult> {
  requireAdmin(user);
  return test(deps, user, INSTANCE, input);
}

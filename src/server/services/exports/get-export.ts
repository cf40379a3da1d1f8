import type { ExportView } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import { toExportView } from "./exports";
import { getOwnedExport } from "./get-owned-export";

export async function getExport(deps: Deps, userId: string, id: string): Promise<ExportView> {
  return toExportView(await getOwnedExport(deps, userId, id));
}

import { and, eq } from "drizzle-orm";
import { UUID_PATTERN } from "../../../shared/ids";
import { exports } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import type { ExportRow } from "./tracker";

export async function getOwnedExport(deps: Pick<Deps, "db">, userId: string, id: string): Promise<ExportRow> {
  if (!UUID_PATTERN.test(id)) throw new AppError("NOT_FOUND", "Export not found");
  const [row] = await deps.db
    .select()
    .from(exports)
    .where(and(eq(exports.id, id), eq(exports.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Export not found");
  return row;
}

import type { Reading } from "../../../shared/schemas/reading";
import type { Deps } from "../../deps";
import { readingToCheck } from "../../engine/brief";
import { storedReadingOf } from "../../engine/reading/review";
import { projectOf } from "./project-of";
import { answer } from "./reading";

/**
 * What was read of a project (any of its task ids names it): the checked reading when it has one, else
 * the description read now, as the planners read it.
 */
export async function getReading(deps: Deps, userId: string, id: string): Promise<Reading> {
  const root = await projectOf(deps, userId, id);
  return answer(root, storedReadingOf(root.reading) ?? readingToCheck(root));
}

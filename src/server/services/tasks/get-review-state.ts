import type { ReviewState } from "../../../shared/schemas/reviews";
import type { Deps } from "../../deps";
import { projectOf, reviewStateOf } from "./approval";

export async function getReviewState(deps: Deps, userId: string, id: string): Promise<ReviewState> {
  return reviewStateOf(deps, await projectOf(deps, userId, id, "read"));
}

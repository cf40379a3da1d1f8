import type { ReviewState } from "../../../shared/schemas/reviews";
import type { Deps } from "../../deps";
import { reviewStateOf } from "./approval";
import { projectOf } from "./project-of";

export async function getReviewState(deps: Deps, userId: string, id: string): Promise<ReviewState> {
  return reviewStateOf(deps, await projectOf(deps, userId, id, "read"));
}

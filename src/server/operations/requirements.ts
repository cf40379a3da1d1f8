import { requirementStatus, requirementStatusInput } from "../../shared/schemas/requirements";
import { getRequirementStatus } from "../services/tasks/get-requirement-status";
import { query } from "./define";

/** Requirement traceability (issue 33), in the tasks group: `trpc.tasks.requirements`, /api/tasks/{id}/requirements. */
export const requirementOperations = {
  requirements: query({
    access: "user",
    summary:
      "Each requirement the plan's description states (R1, R2, ...): the tasks covering it with their status and tracker links, pull requests closing their GitHub issues, and whether it is done; any task id names its plan.",
    input: requirementStatusInput,
    output: requirementStatus,
    run: ({ deps, user }, input) => getRequirementStatus(deps, user.id, input.id),
    rest: [{ method: "get", path: "/tasks/{id}/requirements" }],
  }),
};

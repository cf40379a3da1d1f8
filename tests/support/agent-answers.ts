/**
 * A coding agent's scripted answer to a planning step (the MCP planning tools' `submit_subtasks`): `n`
 * subtasks citing R1 and R2, groups above `leafDepth` and leaves at it, each after the one before; the
 * project's first step also assesses it. Every field the step's schema asks for, and nothing else.
 */
export function scriptedSplit(step: { node_id: string; depth: number }, n = 3, leafDepth = 2) {
  const leaf = step.depth + 1 >= leafDepth;
  const subtasks = Array.from({ length: n }, (_, i) => ({
    title: `Part ${i + 1} of ${step.node_id.slice(0, 8)}`,
    description: `Build part ${i + 1} of this task`,
    complexity_score: leaf ? 3 : 6,
    story_points: leaf ? 2 : 8,
    implementation_details: "Where it goes and what it uses.",
    acceptance_criteria: ["It works as stated", "A test covers it"],
    requirement_ids: ["R1", "R2"],
    estimated_hours: leaf ? 6 : 40,
    estimate_low_hours: leaf ? 4 : 30,
    estimate_high_hours: leaf ? 10 : 60,
    depends_on: i > 0 ? [i] : [],
    atomic: leaf,
  }));
  return {
    node_id: step.node_id,
    subtasks,
    ...(step.depth === 0
      ? { assessment: { complexity_score: 6, story_points: 13, rationale: "Three features and sign-up." } }
      : {}),
  };
}

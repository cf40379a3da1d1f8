import type { EvalCase } from "../case";

export const notionBackup: EvalCase = {
  id: "notion-backup",
  kind: "terse",
  description:
    "script that backs up our notion workspace to s3 every night, keep 30 days, email me if it fails",
  requirements: [
    { id: "R1", text: "Back up the Notion workspace", match: ["Notion"] },
    { id: "R2", text: "To S3", match: ["S3"] },
    { id: "R3", text: "Every night", match: ["night"] },
    { id: "R4", text: "Keep 30 days", match: ["30 days"] },
    { id: "R5", text: "Email on failure", match: ["email"] },
  ],
  technologies: ["s3"],
  non_goals: [],
};

import type { EvalCase } from "../case";

export const deployPipeline: EvalCase = {
  id: "deploy-pipeline",
  kind: "terse",
  description:
    "rewrite our bash deploy scripts as a proper github actions workflow. build docker image, push to artifact registry, deploy to cloud run (staging on merge to main, prod on git tag). slack message when a deploy fails. out of scope: terraform, changing the app itself",
  requirements: [
    { id: "R1", text: "A GitHub Actions workflow", match: ["workflow"] },
    { id: "R2", text: "Build the Docker image", match: ["docker image"] },
    { id: "R3", text: "Push to Artifact Registry", match: ["artifact registry"] },
    { id: "R4", text: "Deploy to Cloud Run", match: ["Cloud Run"] },
    { id: "R5", text: "Staging on merge to main", match: ["staging"] },
    { id: "R6", text: "Prod on a git tag", match: ["tag"] },
    { id: "R7", text: "A Slack message when a deploy fails", match: ["Slack"] },
  ],
  technologies: ["github-actions", "docker", "cloud-run", "terraform"],
  non_goals: [{ text: "Terraform", match: ["Terraform"] }],
};

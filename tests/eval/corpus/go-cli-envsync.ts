import type { EvalCase } from "../case";

export const goCliEnvsync: EvalCase = {
  id: "go-cli-envsync",
  kind: "CLI (Go)",
  description: `A command-line tool in Go called \`envsync\` that keeps .env files in sync across a team. Commands: \`envsync pull\` fetches the shared values from a remote store, \`envsync push\` uploads local changes, \`envsync diff\` shows what differs, and \`envsync doctor\` checks for missing keys. Secrets must be encrypted with age before they leave the machine. Remote backends: S3 and a plain git repo. It should ship as a single static binary for macOS, Linux and Windows.

Later maybe: a web UI and Vault support.`,
  requirements: [
    { id: "R1", text: "envsync pull fetches the shared values", match: ["pull"] },
    { id: "R2", text: "envsync push uploads local changes", match: ["push"] },
    { id: "R3", text: "envsync diff shows what differs", match: ["diff"] },
    { id: "R4", text: "envsync doctor checks for missing keys", match: ["doctor"] },
    { id: "R5", text: "Secrets are encrypted with age before leaving the machine", match: ["encrypt"] },
    { id: "R6", text: "An S3 remote backend", match: ["S3"] },
    { id: "R7", text: "A plain git repo remote backend", match: ["git"] },
    { id: "R8", text: "Ships as a single static binary", match: ["binar"] },
    { id: "R9", text: "Runs on macOS, Linux and Windows", match: ["Windows"] },
  ],
  technologies: ["go", "s3"],
  non_goals: [
    { text: "a web UI", match: ["web UI"] },
    { text: "Vault support", match: ["Vault"] },
  ],
};

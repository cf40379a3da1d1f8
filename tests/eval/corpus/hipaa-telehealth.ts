import type { EvalCase } from "../case";

export const hipaaTelehealth: EvalCase = {
  id: "hipaa-telehealth",
  kind: "regulated (HIPAA)",
  description: `Telehealth MVP for a small therapy practice: patients book a video session with their therapist, fill in an intake questionnaire beforehand, and pay a copay by card. Therapists keep session notes that only they can read. Everything must be HIPAA compliant: BAA-covered hosting, encryption at rest and in transit, access logging, automatic logout after 15 minutes idle. Video via Twilio. Reminders by SMS 24h before.`,
  requirements: [
    { id: "R1", text: "Patients book a video session", match: ["book"] },
    { id: "R2", text: "An intake questionnaire before the session", match: ["intake"] },
    { id: "R3", text: "Pay a copay by card", match: ["copay"] },
    { id: "R4", text: "Private session notes for therapists", match: ["session note"] },
    { id: "R5", text: "HIPAA compliance", match: ["HIPAA"] },
    { id: "R6", text: "BAA-covered hosting", match: ["BAA"] },
    { id: "R7", text: "Encryption at rest and in transit", match: ["encrypt"] },
    { id: "R8", text: "Access logging", match: ["access log"] },
    { id: "R9", text: "Automatic logout after 15 minutes idle", match: ["logout"] },
    { id: "R10", text: "Video via Twilio", match: ["video"] },
    { id: "R11", text: "SMS reminders 24h before", match: ["SMS"] },
  ],
  technologies: ["twilio"],
  non_goals: [],
};

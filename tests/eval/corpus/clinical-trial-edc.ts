import type { EvalCase } from "../case";

export const clinicalTrialEdc: EvalCase = {
  id: "clinical-trial-edc",
  kind: "regulated (21 CFR Part 11)",
  description: `We need an electronic data capture (EDC) system for our Phase II clinical trials. Site coordinators enter case report form (CRF) data per patient visit; monitors review and raise queries on data points; data managers lock the database at the end of the study. It has to comply with 21 CFR Part 11: audit trail of every change (who, what, when, why), electronic signatures with re-authentication, role-based access, and validated system documentation (IQ/OQ/PQ). Data export to CDISC SDTM datasets for the statisticians. Patients are identified only by subject ID, no names or other direct identifiers stored.

non-goals: randomization (we use an external IWRS), ePRO patient apps, billing of sites.`,
  requirements: [
    { id: "R1", text: "Site coordinators enter CRF data", match: ["CRF"] },
    { id: "R2", text: "CRF data per patient visit", match: ["visit"] },
    { id: "R3", text: "Monitors raise queries on data points", match: ["quer"] },
    { id: "R4", text: "Data managers lock the database at study end", match: ["lock"] },
    { id: "R5", text: "An audit trail of every change", match: ["audit trail"] },
    { id: "R6", text: "Electronic signatures", match: ["electronic signature"] },
    { id: "R7", text: "Re-authentication when signing", match: ["re-authenticat"] },
    { id: "R8", text: "Role-based access", match: ["role"] },
    { id: "R9", text: "Validated system documentation (IQ/OQ/PQ)", match: ["IQ/OQ/PQ"] },
    { id: "R10", text: "Export to CDISC SDTM datasets", match: ["SDTM"] },
    { id: "R11", text: "Compliance with 21 CFR Part 11", match: ["Part 11"] },
    { id: "R12", text: "Patients identified only by subject ID", match: ["subject ID"] },
  ],
  technologies: [],
  non_goals: [
    { text: "randomization", match: ["randomi"] },
    { text: "ePRO patient apps", match: ["ePRO"] },
    { text: "billing of sites", match: ["billing"] },
  ],
};

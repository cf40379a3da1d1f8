import type { EvalCase } from "../case";

export const prdShiftSwap: EvalCase = {
  id: "prd-shift-swap",
  kind: "long PRD",
  description: `# Shift swap for ward nurses (PRD)

## Background
Nurses at St. Mary's currently swap shifts through a WhatsApp group and a paper form that the ward manager signs. Swaps get lost, managers approve swaps that break minimum staffing, and payroll finds out weeks later. We want a small, mobile-friendly web app that replaces the form.

## Goals
- A nurse can offer a shift, and any qualified colleague on the same ward can claim it.
- Ward managers approve or reject swaps in one tap, and the app blocks swaps that would break minimum staffing or the 11-hour rest rule.
- Payroll gets a weekly CSV export of approved swaps.
- Everyone gets notified by email and SMS when something changes.

## Scope (v1)
1. Import the roster from the existing HR system's nightly CSV drop (SFTP).
2. Sign-in with the hospital's Microsoft Entra ID accounts.
3. Offer / claim / approve / reject flow with an audit trail.
4. Qualification rules per ward (e.g. only ICU-certified nurses can take ICU shifts).
5. Manager dashboard showing pending swaps and staffing levels per day.

## Non-goals
- Roster generation: the HR system stays the source of truth for the roster.
- Overtime or pay calculations.
- A native mobile app; the responsive web app is enough for v1.
- Integration with other hospitals.

## Constraints
Must be hosted in the hospital's Azure tenant, and the data stays in the EU. The IT team knows C# well, so ASP.NET Core with SQL Server is preferred.`,
  requirements: [
    { id: "R1", text: "A nurse offers a shift", match: ["offer"] },
    { id: "R2", text: "A qualified colleague on the same ward claims it", match: ["claim"] },
    { id: "R3", text: "Ward managers approve or reject swaps", match: ["approv"] },
    { id: "R4", text: "Block swaps that break minimum staffing", match: ["minimum staffing"] },
    { id: "R5", text: "Block swaps that break the 11-hour rest rule", match: ["rest rule"] },
    { id: "R6", text: "Weekly CSV export of approved swaps for payroll", match: ["payroll"] },
    { id: "R7", text: "Notifications by email and SMS", match: ["SMS"] },
    { id: "R8", text: "Import the roster from the nightly CSV drop over SFTP", match: ["SFTP"] },
    { id: "R9", text: "Sign-in with Microsoft Entra ID", match: ["Entra"] },
    { id: "R10", text: "An audit trail of the swap flow", match: ["audit"] },
    { id: "R11", text: "Qualification rules per ward", match: ["qualification"] },
    { id: "R12", text: "A manager dashboard of pending swaps and staffing levels", match: ["dashboard"] },
    { id: "R13", text: "Hosted in the hospital's Azure tenant", match: ["Azure"] },
    { id: "R14", text: "The data stays in the EU", match: ["EU"] },
  ],
  technologies: ["azure-ad", "azure", "csharp", "aspnet", "sqlserver"],
  non_goals: [
    { text: "roster generation", match: ["roster", "generat"] },
    { text: "overtime calculations", match: ["overtime"] },
    { text: "pay calculations", match: ["pay calculation"] },
    { text: "a native mobile app", match: ["native"] },
    { text: "integration with other hospitals", match: ["other hospital"] },
  ],
};

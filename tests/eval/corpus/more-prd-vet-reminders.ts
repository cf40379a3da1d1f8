import type { EvalCase } from "../case";

export const morePrdVetReminders: EvalCase = {
  id: "more-prd-vet-reminders",
  kind: "PRD with noise (veterinary reminder service)",
  work_kind: "product",
  description: `# Booster: vaccine and check-up reminders (PRD v0.3)

https://wiki.harbourside-vets.internal/projects/booster

## Background
Harbourside Vets has 3 clinics and about 9,000 active patients. Vaccine reminders go out as printed postcards once a month, front-desk staff spend roughly 10 hours a week phoning owners of overdue pets, and only 58% of boosters are given on time.

## Goals:
1) On-time boosters up to 75% within a year.
2) Reminder phone calls by the front desk cut by half.

## Requirements

### Data
1) Import the nightly CSV export of due reminders from our practice management system (patient, species, owner contact, reminder code, due date).
2) Skip deceased patients and owners who have opted out, and log every skipped row with the reason.

### Messages
1- Send a first reminder 21 days before the due date and a second one 7 days before.
2- Send an overdue reminder 14 days after the due date if no appointment has been booked.
3- SMS through Twilio for owners with a mobile number, email through SendGrid for everyone else.
4- Every message carries a booking link prefilled with the pet and the service.
   (a) Pets of the same owner that are due in the same week get one combined message.
   (b) Owners can reply STOP to unsubscribe; the unsubscribe is kept in our database and wins over the nightly import.

### Staff dashboard
A list of overdue patients per clinic, sorted by days overdue, with a "called" checkbox and a free-text note per patient.

Message template (SMS):
\`\`\`
Hi {owner_first_name}, {pet_name} is due for {service} on {due_date}.
Book here: {booking_link}  Reply STOP to unsubscribe.
\`\`\`

## Reminder schedule

| When | Channel | Template |
|---|---|---|
| due date - 21 days | SMS or email | first |
| due date - 7 days | SMS or email | second |
| due date + 14 days | SMS or email | overdue |

## Status
- [x] Twilio account and sender number approved
- [x] Sample export received from the practice management vendor
- [ ] Legal review of the SMS wording

## Out of scope
- Postcards (we stop sending them when this goes live)
- Reminders for prescription refills

## Future
- A pet owner app with push notifications`,
  requirements: [
    { id: "R1", text: "Import the nightly CSV export of due reminders", match: ["import"] },
    { id: "R2", text: "Skip deceased patients and opted-out owners", match: ["deceased"] },
    { id: "R3", text: "Log every skipped row with the reason", match: ["skipped"] },
    { id: "R4", text: "A first reminder 21 days before and a second 7 days before", match: ["21 day"] },
    { id: "R5", text: "An overdue reminder 14 days after the due date", match: ["14 day"] },
    { id: "R6", text: "SMS through Twilio for owners with a mobile number", match: ["Twilio"] },
    { id: "R7", text: "Email through SendGrid for everyone else", match: ["SendGrid"] },
    { id: "R8", text: "A booking link prefilled with the pet and the service", match: ["booking link"] },
    {
      id: "R9",
      text: "One combined message for pets of the same owner due in the same week",
      match: ["combined"],
    },
    { id: "R10", text: "Reply STOP to unsubscribe, kept over the nightly import", match: ["unsubscribe"] },
    { id: "R11", text: "A dashboard of overdue patients per clinic", match: ["dashboard"] },
    { id: "R12", text: "A called checkbox and a free-text note per patient", match: ["called"] },
  ],
  technologies: ["twilio", "sendgrid"],
  non_goals: [
    { text: "postcards", match: ["postcard"] },
    { text: "reminders for prescription refills", match: ["refill"] },
    { text: "a pet owner app with push notifications", match: ["push notification"] },
  ],
  not_work: [
    { text: "the URL-only line", match: ["wiki.harbourside"] },
    { text: "the background: hours of phoning", match: ["10 hours"] },
    { text: "the background: 58% on time", match: ["58%"] },
    { text: "goal: 75% within a year", match: ["75%"] },
    { text: "goal: calls cut by half", match: ["by half"] },
    { text: "the message template's placeholders", match: ["owner_first_name"] },
    { text: "[x] Twilio account and sender number approved (done)", match: ["sender number"] },
    { text: "[x] sample export received (done)", match: ["sample export"] },
  ],
  separate: [["R6", "R7"]],
  independent: [
    ["R9", "R11"],
    ["R7", "R12"],
  ],
  inspired_by:
    "https://clinichq.com/public/manual/v1/en/topic/item-reminders (vaccine booster reminders by email or text after an appointment) and https://knowledge.vet2pet.com/article/2glnnh8pjm-health-service-reminder-settings (coming-due and overdue reminders by SMS, email and postcard, nightly sync from the practice management software)",
};

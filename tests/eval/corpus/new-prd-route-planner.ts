import type { EvalCase } from "../case";

export const newPrdRoutePlanner: EvalCase = {
  id: "new-prd-route-planner",
  kind: "PRD with a wireframe (logistics web app)",
  work_kind: "product",
  description: `# Route Planner — PRD (draft 2)

Owner: ops team at Kestrel Couriers · Status: for review

## Problem
Every morning two dispatchers spend about 90 minutes putting 400-600 parcel stops into routes by hand in a spreadsheet, then read the stops to 25 drivers over the phone. Routes overlap, drivers cross town twice, and when a customer calls to ask where their parcel is, nobody knows.

## What we're building
A web app for dispatchers and a mobile web view for drivers.

### Dispatcher flow
1. Import the day's stops from the warehouse system's CSV export (address, time window, parcel count).
2) Geocode every address and flag the ones that fail, so a dispatcher can fix them by hand.
3. Optimise routes for the available drivers, respecting delivery time windows and van capacity.
4) Review the routes on a map and drag a stop to another route if needed.
5. Publish: each driver's route goes to their phone.

### Driver view
\`\`\`
┌─────────────────────────────────┐
│ Route 7 · 38 stops · 112 km     │
├─────────────────────────────────┤
│ ▶ 12  Weststraat 4  09:00-11:00 │
│   13  Molenweg 18   any time    │
│   14  Kerkplein 2   10:00-12:00 │
├─────────────────────────────────┤
│ [Navigate] [Delivered] [Failed] │
└─────────────────────────────────┘
\`\`\`
- Tap Navigate to open the stop in Google Maps or Waze.
- Proof of delivery: a photo or a signature on Delivered, a reason code on Failed.
- Works offline in dead zones and syncs when the signal is back.

### Tracking
Customers get an SMS with a tracking link when their parcel is out for delivery, and the ETA updates as the driver works through the route.

## Success metrics
- Planning time under 15 minutes a day.
- 10% fewer kilometres driven per parcel.

Out:
- Native iOS/Android apps.
- Fleet maintenance and vehicle telematics.
- Customer billing and invoicing.`,
  requirements: [
    { id: "R1", text: "Import the day's stops from the warehouse system's CSV export", match: ["import"] },
    { id: "R2", text: "Geocode every address and flag the ones that fail", match: ["geocod"] },
    { id: "R3", text: "Optimise routes for the available drivers", match: ["optimi"] },
    { id: "R4", text: "Respect delivery time windows", match: ["time window"] },
    { id: "R5", text: "Respect van capacity", match: ["capacity"] },
    { id: "R6", text: "Review routes on a map and drag a stop to another route", match: ["drag"] },
    { id: "R7", text: "Publish each driver's route to their phone", match: ["publish"] },
    { id: "R8", text: "Navigate opens the stop in Google Maps or Waze", match: ["navigat"] },
    { id: "R9", text: "Proof of delivery: a photo or a signature", match: ["proof of delivery"] },
    { id: "R10", text: "A reason code on a failed delivery", match: ["reason code"] },
    {
      id: "R11",
      text: "The driver view works offline and syncs when the signal is back",
      match: ["offline"],
    },
    {
      id: "R12",
      text: "An SMS with a tracking link when the parcel is out for delivery",
      match: ["tracking link"],
    },
    { id: "R13", text: "The ETA updates as the driver progresses", match: ["ETA"] },
  ],
  technologies: [],
  non_goals: [
    { text: "native iOS/Android apps", match: ["native"] },
    { text: "fleet maintenance", match: ["fleet maintenance"] },
    { text: "vehicle telematics", match: ["telematics"] },
    { text: "customer billing", match: ["billing"] },
    { text: "invoicing", match: ["invoic"] },
  ],
  not_work: [
    { text: "the owner and status line", match: ["for review"] },
    { text: "the problem narrative (90 minutes by hand)", match: ["90 minutes"] },
    { text: "reading the stops over the phone", match: ["over the phone"] },
    { text: "success metric: planning time", match: ["planning time"] },
    { text: "success metric: fewer kilometres", match: ["fewer kilometres"] },
    { text: "the wireframe's sample addresses", match: ["Weststraat"] },
  ],
  separate: [
    ["R8", "R9", "R11"],
    ["R12", "R13"],
  ],
  sequence: [["R1", "R2", "R3", "R6", "R7"]],
  independent: [
    ["R4", "R5"],
    ["R9", "R12"],
  ],
  inspired_by:
    "https://ralph-specs.vercel.app/prd/0iJm3DBDakDr-VcTPPAA3 (RouteMaster: a dispatcher web app that optimises routes and pushes stops to a driver view) and https://rocketlab-docs-chat-test.pages.dev/product-context/ (driver app workflows and out-of-scope list)",
};

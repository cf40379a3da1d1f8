import type { EvalCase } from "../case";

export const mobileDogWalking: EvalCase = {
  id: "mobile-dog-walking",
  kind: "mobile app (Expo)",
  application_type: "mobile-application",
  tech_stack_id: "react-native-expo",
  description: `Building a mobile app for our dog-walking business with Expo (React Native). Clients book walks from a calendar, pay in the app, and get a push notification when the walker picks up and drops off their dog. During the walk the client sees the route live on a map and gets photos. Walkers get their daily schedule and can mark a walk as started/finished. Backend: Supabase for auth and data.

Not in v1: tipping, walker ratings, and an Android tablet layout.`,
  requirements: [
    { id: "R1", text: "Clients book walks from a calendar", match: ["book"] },
    { id: "R2", text: "Clients pay in the app", match: ["pay"] },
    { id: "R3", text: "Push notification at pick-up and drop-off", match: ["push notification"] },
    { id: "R4", text: "The client sees the route live on a map", match: ["map"] },
    { id: "R5", text: "The client gets photos during the walk", match: ["photo"] },
    { id: "R6", text: "Walkers get their daily schedule", match: ["schedule"] },
    { id: "R7", text: "Walkers mark a walk as started or finished", match: ["start", "finish"] },
    { id: "R8", text: "Supabase for auth and data", match: ["Supabase"] },
  ],
  technologies: ["expo", "react-native", "supabase"],
  non_goals: [
    { text: "tipping", match: ["tipping"] },
    { text: "walker ratings", match: ["rating"] },
    { text: "an Android tablet layout", match: ["tablet"] },
  ],
};

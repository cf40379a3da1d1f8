import type { EvalCase } from "../case";

export const morePerfRnColdStart: EvalCase = {
  id: "more-perf-rn-cold-start",
  kind: "performance issue with measurements and suspects (React Native cold start)",
  work_kind: "performance",
  description: `Android cold start takes 6.8 s on mid-range phones

Our React Native app (v4.2) takes far too long from tapping the icon to a usable home feed on anything that isn't a flagship. Play Console shows "excessive slow cold starts" and the store reviews mention it weekly.

Measured on release builds, cold start (app killed, caches kept), time until the home feed has rendered, median of 10 runs:

| Device | Cold start to feed |
|---|---|
| Pixel 7 | 2.1 s |
| Samsung Galaxy A14 | 6.8 s |
| Moto G22 | 8.2 s |

Firebase Performance agrees: \`_app_start\` p90 is 7.4 s across Android users. iOS is fine (1.9 s on an iPhone 11).

Trace summary from the A14, for reference:
\`\`\`
am start -W -n com.fieldnote/.MainActivity
TotalTime: 1320
JS bundle load + eval ........ 2410 ms
store rehydrate ............. 1580 ms
splash animation ............ 1200 ms
\`\`\`

Suspects, roughly in the order I'd bet on them:
1. Hermes is off. We disabled it in 2022 for a crash in an Intl polyfill we have since removed. Turn it back on and re-measure.
2. The JS bundle is 9.4 MB: Moment.js ships with all of its locales, and every screen is imported at startup. Drop the unused locales and lazy-load the screens that aren't in the first tab.
3. The whole persisted store (about 4 MB of JSON) is read and parsed before the first render. Restore only the session and the feed before the first screen, the rest afterwards.
4. The splash screen waits for its 1.2 s animation to finish. Hide the splash as soon as the feed is ready instead.
5. 14 native modules are initialised eagerly (analytics, maps, chat, crash reporting...). Defer the ones the first screen doesn't need.

Target: under 2.5 s on the Galaxy A14, measured the same way. And add a startup-time check to the release pipeline that fails the build above 3 s on the Firebase Test Lab A14, so this doesn't creep back.`,
  requirements: [
    { id: "R1", text: "Turn Hermes back on and re-measure", match: ["Hermes"] },
    { id: "R2", text: "Drop the unused Moment.js locales", match: ["locale"] },
    { id: "R3", text: "Lazy-load the screens that aren't in the first tab", match: ["lazy"] },
    {
      id: "R4",
      text: "Restore only the session and the feed before the first screen, the rest afterwards",
      match: ["restore"],
    },
    { id: "R5", text: "Hide the splash as soon as the feed is ready", match: ["splash"] },
    { id: "R6", text: "Defer the native modules the first screen doesn't need", match: ["native module"] },
    { id: "R7", text: "Cold start under 2.5 s on the Galaxy A14", match: ["2.5"] },
    {
      id: "R8",
      text: "A startup-time check in the release pipeline that fails above 3 s",
      match: ["release pipeline"],
    },
  ],
  technologies: ["react-native", "firebase", "moment", "hermes"],
  non_goals: [],
  not_work: [
    { text: "the measurement table", match: ["Pixel 7"] },
    { text: "the measurement table", match: ["Moto G22"] },
    { text: "iOS is fine", match: ["iPhone 11"] },
    { text: "the trace summary", match: ["TotalTime"] },
    { text: "why Hermes was turned off", match: ["polyfill"] },
    { text: "the store reviews", match: ["store reviews"] },
  ],
  independent: [
    ["R2", "R4"],
    ["R5", "R6"],
  ],
  inspired_by:
    "https://github.com/Expensify/App/issues/4656 ([Performance] Improve Android Cold Boot TTI: traces of script execution and storage init) and https://github.com/react-native-community/discussions-and-proposals/issues/415 (Android cold start over 5 s with Hermes, an 8 MB bundle and a Lottie splash)",
};

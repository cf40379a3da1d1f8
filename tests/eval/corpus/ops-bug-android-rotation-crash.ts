import type { EvalCase } from "../case";

export const opsBugAndroidRotationCrash: EvalCase = {
  id: "ops-bug-android-rotation-crash",
  kind: "bug report (Android app crash on rotation, Kotlin)",
  work_kind: "bug",
  description: `[BUG] App crashes when rotating the phone while a route is loading

**Describe the bug**
On the "Plan trip" screen, if you rotate the device while the route is still being calculated (spinner visible), the app crashes. It happens every time on a slow connection. Our crash reporting says it's the #1 crash in 3.8.0 (1.9% of sessions).

**To Reproduce**
1. Open the app and go to Plan trip
2. Enter "Central Station" → "Airport" and tap Search
3. While the spinner is showing, rotate to landscape
4. The app crashes

**Expected behavior**
The route keeps loading and shows up in landscape, no crash.

**Logs**
\`\`\`
E/AndroidRuntime: FATAL EXCEPTION: main
    Process: com.transitly.app, PID: 20931
    kotlin.UninitializedPropertyAccessException: lateinit property binding has not been initialized
        at com.transitly.app.plan.PlanTripFragment.getBinding(PlanTripFragment.kt:41)
        at com.transitly.app.plan.PlanTripFragment.showRoute(PlanTripFragment.kt:118)
        at com.transitly.app.plan.PlanTripFragment$search$1.onResponse(PlanTripFragment.kt:96)
        at retrofit2.DefaultCallAdapterFactory$ExecutorCallbackCall$1.lambda$onResponse$0(DefaultCallAdapterFactory.java:89)
        at android.os.Handler.handleCallback(Handler.java:958)
\`\`\`

**Smartphone**
- Device: Pixel 7, Galaxy A52
- OS: Android 13 and 14
- App version: 3.8.0 (build 380)

**Additional context**
The network callback outlives the fragment's view. Proposed fix: move the route request into the ViewModel and expose the result as a StateFlow so it survives rotation, and collect it in the fragment with repeatOnLifecycle. While you're in there: the selected stops are also lost on rotation, please keep them too. And add an instrumented test that rotates the screen during loading.`,
  requirements: [
    {
      id: "R1",
      text: "Move the route request into the ViewModel and expose the result as a StateFlow",
      match: ["ViewModel"],
    },
    { id: "R2", text: "Collect it in the fragment with repeatOnLifecycle", match: ["repeatOnLifecycle"] },
    { id: "R3", text: "Keep the selected stops on rotation", match: ["selected stops"] },
    {
      id: "R4",
      text: "An instrumented test that rotates the screen during loading",
      match: ["instrumented test"],
    },
  ],
  technologies: ["kotlin"],
  non_goals: [],
  not_work: [
    { text: "the reproduction step's example trip", match: ["Central Station"] },
    { text: "the crash log", match: ["AndroidRuntime"] },
    { text: "the devices the crash was seen on", match: ["Galaxy"] },
    { text: "the crash statistics", match: ["1.9%"] },
  ],
  independent: [["R3", "R4"]],
  inspired_by:
    "https://github.com/project-travel-mate/Travel-Mate/issues/410 (crash on rotation, fragment not attached) and https://github.com/numbersprotocol/starling-capture/issues/17 (rotation crash, steps and logs)",
};

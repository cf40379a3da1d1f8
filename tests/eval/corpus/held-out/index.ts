import type { EvalCase } from "../../case";
import { hoBabyLogApp } from "./baby-log-app";
import { hoBikeClassifieds } from "./bike-classifieds";
import { hoBugIcsDaylightSaving } from "./bug-ics-daylight-saving";
import { hoBugPhotoOrientation } from "./bug-photo-orientation";
import { hoCraToVite } from "./cra-to-vite";
import { hoFeatureGdprSelfService } from "./feature-gdpr-self-service";
import { hoForumChoirScores } from "./forum-choir-scores";
import { hoForumToolLibrary } from "./forum-tool-library";
import { hoHackathonSurplusSms } from "./hackathon-surplus-sms";
import { hoInfraKioskFleet } from "./infra-kiosk-fleet";
import { hoMlRequestRouting } from "./ml-request-routing";
import { hoPerfNightlyAggregation } from "./perf-nightly-aggregation";
import { hoPhotoSorterCli } from "./photo-sorter-cli";
import { hoPrdAnimalRescueSite } from "./prd-animal-rescue-site";
import { hoPrdKitchenBooking } from "./prd-kitchen-booking";
import { hoReadmeStackScheduler } from "./readme-stack-scheduler";
import { hoSpringBoot3Upgrade } from "./spring-boot-3-upgrade";
import { hoWeddingRsvpSite } from "./wedding-rsvp-site";

/**
 * The held-out cases (issue 28): measured with the rest of the corpus but kept out of the tuning loop.
 * Whoever improves the planner does not read these files; the scores on them say whether a change
 * generalises beyond the cases it was tuned on.
 */
export const HELD_OUT_CASES: readonly EvalCase[] = [
  hoPhotoSorterCli,
  hoBabyLogApp,
  hoWeddingRsvpSite,
  hoBikeClassifieds,
  hoHackathonSurplusSms,
  hoForumToolLibrary,
  hoForumChoirScores,
  hoPrdKitchenBooking,
  hoReadmeStackScheduler,
  hoPrdAnimalRescueSite,
  hoBugPhotoOrientation,
  hoBugIcsDaylightSaving,
  hoPerfNightlyAggregation,
  hoSpringBoot3Upgrade,
  hoCraToVite,
  hoInfraKioskFleet,
  hoMlRequestRouting,
  hoFeatureGdprSelfService,
];

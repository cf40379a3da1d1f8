import type { EvalCase } from "../case";
import { angularjsToReact } from "./angularjs-to-react";
import { browserExtensionHighlights } from "./browser-extension-highlights";
import { clinicalTrialEdc } from "./clinical-trial-edc";
import { deployPipeline } from "./deploy-pipeline";
import { discordDndBot } from "./discord-dnd-bot";
import { djangoSamlSso } from "./django-saml-sso";
import { esp32Greenhouse } from "./esp32-greenhouse";
import { fitFilePackage } from "./fit-file-package";
import { goCliEnvsync } from "./go-cli-envsync";
import { godotRoguelike } from "./godot-roguelike";
import { habitTracker } from "./habit-tracker";
import { HELD_OUT_CASES } from "./held-out/index";
import { hipaaTelehealth } from "./hipaa-telehealth";
import { invoicingStripe } from "./invoicing-stripe";
import { mlChurn } from "./ml-churn";
import { mobileDogWalking } from "./mobile-dog-walking";
import { moreBugPaginationDuplicates } from "./more-bug-pagination-duplicates";
import { moreBugStripeWebhookSignature } from "./more-bug-stripe-webhook-signature";
import { moreDataBikeshareDemand } from "./more-data-bikeshare-demand";
import { moreFeatureCommentMentions } from "./more-feature-comment-mentions";
import { moreForumChessClubPairings } from "./more-forum-chess-club-pairings";
import { moreForumCommunityGarden } from "./more-forum-community-garden";
import { moreInfraCloudflareDnsWaf } from "./more-infra-cloudflare-dns-waf";
import { moreMigSpringBoot3 } from "./more-mig-spring-boot-3";
import { moreOnelinerHomebrewCalculator } from "./more-oneliner-homebrew-calculator";
import { moreOnelinerLanguageExchange } from "./more-oneliner-language-exchange";
import { moreOnelinerTattooCrm } from "./more-oneliner-tattoo-crm";
import { morePerfRnColdStart } from "./more-perf-rn-cold-start";
import { morePrdVetReminders } from "./more-prd-vet-reminders";
import { moreReadmeHamLogbook } from "./more-readme-ham-logbook";
import { mqttTimescalePipeline } from "./mqtt-timescale-pipeline";
import { mysqlToPostgres } from "./mysql-to-postgres";
import { newBakeryPreorders } from "./new-bakery-preorders";
import { newBootcampLms } from "./new-bootcamp-lms";
import { newEnergyMonitorPi } from "./new-energy-monitor-pi";
import { newFeatureMulticurrency } from "./new-feature-multicurrency";
import { newFeatureOfflineInspections } from "./new-feature-offline-inspections";
import { newFeatureTotp2fa } from "./new-feature-totp-2fa";
import { newFeatureWebhooks } from "./new-feature-webhooks";
import { newFoodBankVolunteers } from "./new-food-bank-volunteers";
import { newPrdOnboardingPortal } from "./new-prd-onboarding-portal";
import { newPrdReturnsPortal } from "./new-prd-returns-portal";
import { newPrdRoutePlanner } from "./new-prd-route-planner";
import { newProseBandSetlists } from "./new-prose-band-setlists";
import { newProseLandlordMaintenance } from "./new-prose-landlord-maintenance";
import { newProsePillboxHackathon } from "./new-prose-pillbox-hackathon";
import { newProsePodcastSearch } from "./new-prose-podcast-search";
import { newProseReadingLog } from "./new-prose-reading-log";
import { newReadmeFeedrelay } from "./new-readme-feedrelay";
import { newReadmeTacticsGame } from "./new-readme-tactics-game";
import { newSplitbillTelegramBot } from "./new-splitbill-telegram-bot";
import { newTriviaPartyGame } from "./new-trivia-party-game";
import { notionBackup } from "./notion-backup";
import { opsBugAndroidRotationCrash } from "./ops-bug-android-rotation-crash";
import { opsBugCeleryDuplicateReminders } from "./ops-bug-celery-duplicate-reminders";
import { opsBugCsvUmlautsExcel } from "./ops-bug-csv-umlauts-excel";
import { opsBugGoConcurrentMapWrites } from "./ops-bug-go-concurrent-map-writes";
import { opsBugNextjsHydrationDates } from "./ops-bug-nextjs-hydration-dates";
import { opsDataDefectDetectionModel } from "./ops-data-defect-detection-model";
import { opsDataProductMetricsDashboard } from "./ops-data-product-metrics-dashboard";
import { opsDataRevenueEltSnowflake } from "./ops-data-revenue-elt-snowflake";
import { opsInfraGitlabCiCd } from "./ops-infra-gitlab-ci-cd";
import { opsInfraK8sMonitoring } from "./ops-infra-k8s-monitoring";
import { opsInfraPostgresBackups } from "./ops-infra-postgres-backups";
import { opsMigHerokuToAws } from "./ops-mig-heroku-to-aws";
import { opsMigMongodbToPostgres } from "./ops-mig-mongodb-to-postgres";
import { opsMigPython312Upgrade } from "./ops-mig-python-312-upgrade";
import { opsMigRails7Upgrade } from "./ops-mig-rails-7-upgrade";
import { opsPerfDjangoAdminOrders } from "./ops-perf-django-admin-orders";
import { opsPerfSpaBundleSize } from "./ops-perf-spa-bundle-size";
import { opsProductFastIssueTracker } from "./ops-product-fast-issue-tracker";
import { opsSpikeFeatureFlagService } from "./ops-spike-feature-flag-service";
import { opsSpikePostgresFts } from "./ops-spike-postgres-fts";
import { prdShiftSwap } from "./prd-shift-swap";
import { promoRulesDsl } from "./promo-rules-dsl";
import { rustInterpreter } from "./rust-interpreter";
import { slackStandupBot } from "./slack-standup-bot";
import { supportAdminDashboard } from "./support-admin-dashboard";
import { terraformAws } from "./terraform-aws";
import { tsDateLibrary } from "./ts-date-library";
import { urlShortener } from "./url-shortener";
import { vagueCheckout } from "./vague-checkout";
import { vagueGym } from "./vague-gym";
import { webRecipes } from "./web-recipes";

/** Issue 28: new products and features on existing products, as people really write them (one-liners, prose, PRDs, feature requests). */
export const NEW_PRODUCT_CASES: readonly EvalCase[] = [
  newSplitbillTelegramBot,
  newBootcampLms,
  newBakeryPreorders,
  newTriviaPartyGame,
  newFoodBankVolunteers,
  newEnergyMonitorPi,
  newProsePillboxHackathon,
  newProseBandSetlists,
  newProseReadingLog,
  newProsePodcastSearch,
  newProseLandlordMaintenance,
  newReadmeFeedrelay,
  newPrdRoutePlanner,
  newPrdOnboardingPortal,
  newReadmeTacticsGame,
  newPrdReturnsPortal,
  newFeatureWebhooks,
  newFeatureTotp2fa,
  newFeatureOfflineInspections,
  newFeatureMulticurrency,
];

/** Issue 28: work on existing systems and non-product work, as people really write it (bug reports, performance issues, migrations, infrastructure, data and ML, spikes), plus a new product whose selling point is speed. */
export const NEW_OPERATIONS_CASES: readonly EvalCase[] = [
  opsBugCeleryDuplicateReminders,
  opsBugNextjsHydrationDates,
  opsBugAndroidRotationCrash,
  opsBugGoConcurrentMapWrites,
  opsBugCsvUmlautsExcel,
  opsPerfDjangoAdminOrders,
  opsPerfSpaBundleSize,
  opsProductFastIssueTracker,
  opsMigRails7Upgrade,
  opsMigPython312Upgrade,
  opsMigMongodbToPostgres,
  opsMigHerokuToAws,
  opsInfraGitlabCiCd,
  opsInfraK8sMonitoring,
  opsInfraPostgresBackups,
  opsDataDefectDetectionModel,
  opsDataRevenueEltSnowflake,
  opsDataProductMetricsDashboard,
  opsSpikePostgresFts,
  opsSpikeFeatureFlagService,
];

/** Issue 28: more cases in domains the others do not use (one-liners, forum posts, noisy PRDs and READMEs, bug reports, performance, an upgrade, infrastructure, data and a feature with acceptance criteria). */
export const MORE_CASES: readonly EvalCase[] = [
  moreOnelinerTattooCrm,
  moreOnelinerLanguageExchange,
  moreOnelinerHomebrewCalculator,
  moreForumChessClubPairings,
  moreForumCommunityGarden,
  morePrdVetReminders,
  moreReadmeHamLogbook,
  moreBugStripeWebhookSignature,
  moreBugPaginationDuplicates,
  morePerfRnColdStart,
  moreMigSpringBoot3,
  moreInfraCloudflareDnsWaf,
  moreDataBikeshareDemand,
  moreFeatureCommentMentions,
];

/** The planning-quality corpus: one annotated description per file. */
export const CORPUS: readonly EvalCase[] = [
  webRecipes,
  mobileDogWalking,
  goCliEnvsync,
  tsDateLibrary,
  fitFilePackage,
  rustInterpreter,
  mqttTimescalePipeline,
  discordDndBot,
  slackStandupBot,
  terraformAws,
  deployPipeline,
  browserExtensionHighlights,
  djangoSamlSso,
  mysqlToPostgres,
  angularjsToReact,
  vagueCheckout,
  vagueGym,
  prdShiftSwap,
  clinicalTrialEdc,
  hipaaTelehealth,
  invoicingStripe,
  promoRulesDsl,
  habitTracker,
  mlChurn,
  godotRoguelike,
  esp32Greenhouse,
  urlShortener,
  supportAdminDashboard,
  notionBackup,
  ...NEW_PRODUCT_CASES,
  ...NEW_OPERATIONS_CASES,
  ...MORE_CASES,
  ...HELD_OUT_CASES,
];

export { HELD_OUT_CASES };

export function findCase(id: string): EvalCase | undefined {
  return CORPUS.find((c) => c.id === id);
}

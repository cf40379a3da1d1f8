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
import { hipaaTelehealth } from "./hipaa-telehealth";
import { invoicingStripe } from "./invoicing-stripe";
import { mlChurn } from "./ml-churn";
import { mobileDogWalking } from "./mobile-dog-walking";
import { mqttTimescalePipeline } from "./mqtt-timescale-pipeline";
import { mysqlToPostgres } from "./mysql-to-postgres";
import { notionBackup } from "./notion-backup";
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
];

export function findCase(id: string): EvalCase | undefined {
  return CORPUS.find((c) => c.id === id);
}

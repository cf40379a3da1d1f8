import type { ExportKind } from "../../../shared/schemas/integrations";
import type { Deps } from "../../deps";
import type { ExportContextPort, ExporterPort, ExportPlan, TrackerPort } from "./tracker";

/** The tracker port (tracker.ts) bound to the services' Deps: what the trackers and the runner are written against. */
export type Tracker = TrackerPort<Deps>;
export type ExportContext = ExportContextPort<Deps>;
export type Exporter<Plan extends ExportPlan = ExportPlan> = ExporterPort<Deps, Plan>;
export type Trackers = Record<ExportKind, Tracker>;

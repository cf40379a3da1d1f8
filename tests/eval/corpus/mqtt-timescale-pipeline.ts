import type { EvalCase } from "../case";

export const mqttTimescalePipeline: EvalCase = {
  id: "mqtt-timescale-pipeline",
  kind: "data pipeline",
  description: `We have ~2,000 sensors in three factories publishing temperature, vibration and power readings over MQTT (Mosquitto broker, JSON payloads, about 1 msg/sec per sensor). Need an ingestion service in Python that subscribes to the topics, validates and deduplicates messages, and writes them in batches to TimescaleDB.

Requirements:
1. Late and out-of-order messages must be handled (devices buffer when offline).
2. Continuous aggregates for 1-minute and 1-hour rollups.
3. Retention: raw data 30 days, rollups 2 years.
4. Alert when a sensor goes silent for more than 5 minutes.
5. Grafana dashboards per factory.

Runs on a single VM with Docker Compose.`,
  requirements: [
    { id: "R1", text: "Subscribe to the MQTT topics", match: ["subscrib"] },
    { id: "R2", text: "Validate messages", match: ["validat"] },
    { id: "R3", text: "Deduplicate messages", match: ["dedup"] },
    { id: "R4", text: "Write to TimescaleDB in batches", match: ["batch"] },
    { id: "R5", text: "Handle late and out-of-order messages", match: ["out of order"] },
    {
      id: "R6",
      text: "Continuous aggregates for 1-minute and 1-hour rollups",
      match: ["continuous aggregate"],
    },
    { id: "R7", text: "Retention: raw data 30 days, rollups 2 years", match: ["retention"] },
    { id: "R8", text: "Alert when a sensor goes silent for more than 5 minutes", match: ["silent"] },
    { id: "R9", text: "Grafana dashboards per factory", match: ["Grafana"] },
    { id: "R10", text: "Runs on a single VM with Docker Compose", match: ["Docker Compose"] },
  ],
  technologies: ["mqtt", "mosquitto", "python", "timescaledb", "grafana", "docker"],
  non_goals: [],
};

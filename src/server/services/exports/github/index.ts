export { githubExporter } from "./exporter";
export { blockersFirst, taskMarker } from "./payloads";

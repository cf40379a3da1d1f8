export { trelloExporter } from "./exporter";
export { boardMarker, cardMarker } from "./payloads";

export * from "./blog";
export * from "./events";
export * from "./integrations";
export * from "./jobs";
export * from "./tasks";
export * from "./teams";
export * from "./users";

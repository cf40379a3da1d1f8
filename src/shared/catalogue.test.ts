import { describe, expect, it } from "vitest";
import {
  APPLICATION_TYPE_IDS,
  APPLICATION_TYPES,
  findApplicationType,
  findStack,
  findStackAnywhere,
} from "./catalogue";

const EXPECTED_TYPES: ReadonlyArray<[string, string]> = [
  ["web-application", "Web Application"],
  ["mobile-application", "Mobile Application"],
  ["api-backend", "API / Backend Service"],
  ["desktop-application", "Desktop Application"],
  ["data-science", "Data Science / ML"],
  ["ecommerce", "E-commerce"],
  ["cms", "Content Management (CMS)"],
  ["game", "Game"],
  ["iot", "IoT / Embedded"],
  ["automation", "Automation / Scripting"],
];

const EXPECTED_COUNTS: Record<string, number> = {
  "web-application": 8,
  "mobile-application": 7,
  "api-backend": 8,
  "desktop-application": 7,
  "data-science": 7,
  ecommerce: 6,
  cms: 6,
  game: 6,
  iot: 6,
  automation: 6,
};

const EXAMPLE_STACKS: ReadonlyArray<[string, string]> = [
  ["web-application", "react-node-postgres"],
  ["web-application", "nextjs-postgres"],
  ["mobile-application", "flutter-firebase"],
  ["api-backend", "fastapi-postgres"],
  ["desktop-application", "electron-react"],
  ["data-science", "python-pandas-jupyter"],
  ["ecommerce", "shopify-liquid"],
  ["game", "unity-csharp"],
  ["iot", "arduino-cpp"],
  ["automation", "python-selenium"],
];

const allStacks = APPLICATION_TYPES.flatMap((type) => type.stacks.map((stack) => ({ type: type.id, stack })));

describe("application type catalogue", () => {
  it("lists the 10 application types in order with their labels", () => {
    expect([...APPLICATION_TYPE_IDS]).toEqual(EXPECTED_TYPES.map(([id]) => id));
    expect(APPLICATION_TYPES.map((type) => [type.id, type.label])).toEqual(EXPECTED_TYPES);
  });

  it("has the exact stack count per type and 67 in all", () => {
    for (const type of APPLICATION_TYPES) {
      expect(type.stacks.length, type.id).toBe(EXPECTED_COUNTS[type.id]);
    }
    expect(allStacks).toHaveLength(67);
  });

  it.each(EXAMPLE_STACKS)("offers %s → %s", (typeId, stackId) => {
    expect(findStack(typeId, stackId)?.id).toBe(stackId);
  });

  it("lists wordpress-mysql under both web-application and cms", () => {
    expect(findStack("web-application", "wordpress-mysql")).toBeDefined();
    expect(findStack("cms", "wordpress-mysql")).toBeDefined();
    const owners = allStacks.filter(({ stack }) => stack.id === "wordpress-mysql").map(({ type }) => type);
    expect(owners).toEqual(["web-application", "cms"]);
  });

  it("uses unique kebab-case stack ids apart from wordpress-mysql", () => {
    const ids = allStacks.map(({ stack }) => stack.id).filter((id) => id !== "wordpress-mysql");
    expect(new Set(ids).size).toBe(ids.length);
    for (const { stack } of allStacks) {
      expect(stack.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    for (const type of APPLICATION_TYPES) {
      const own = type.stacks.map((stack) => stack.id);
      expect(new Set(own).size, type.id).toBe(own.length);
    }
  });

  it("fills every field of every type and stack", () => {
    for (const type of APPLICATION_TYPES) {
      expect(type.label.trim()).not.toBe("");
      expect(type.description.trim()).not.toBe("");
    }
    for (const { stack } of allStacks) {
      for (const field of [
        "id",
        "name",
        "description",
        "frontend_framework",
        "backend_language",
        "database",
      ] as const) {
        expect(typeof stack[field], `${stack.id}.${field}`).toBe("string");
        expect(stack[field].trim(), `${stack.id}.${field}`).not.toBe("");
      }
    }
  });
});

describe("lookups", () => {
  it("findApplicationType finds known ids only", () => {
    expect(findApplicationType("game")?.label).toBe("Game");
    expect(findApplicationType("nope")).toBeUndefined();
  });

  it("findStack refuses a stack that belongs to another type", () => {
    expect(findStack("web-application", "unity-csharp")).toBeUndefined();
    expect(findStack("game", "react-node-postgres")).toBeUndefined();
    expect(findStack("unknown-type", "react-node-postgres")).toBeUndefined();
    expect(findStack("web-application", "no-such-stack")).toBeUndefined();
  });

  it("findStackAnywhere finds a stack under any type", () => {
    expect(findStackAnywhere("arduino-cpp")?.database).toBe("None");
    expect(findStackAnywhere("wordpress-mysql")?.backend_language).toBe("PHP");
    expect(findStackAnywhere("no-such-stack")).toBeUndefined();
  });
});

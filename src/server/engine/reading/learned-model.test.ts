import { describe, expect, it } from "vitest";
import { DEFAULT_TRAIN_OPTIONS, type Example, predict, trainModel } from "./learned-model";

const examples: Example[] = [
  ...["add export", "add import", "build export", "build search", "add search"].map((s) => ({
    features: ["bias", ...s.split(" ").map((w) => `l:${w}`)],
    label: "work",
    weight: 1,
  })),
  ...["thanks all", "thanks again", "cheers all", "thanks team"].map((s) => ({
    features: ["bias", ...s.split(" ").map((w) => `l:${w}`)],
    label: "context",
    weight: 1,
  })),
];
const options = { ...DEFAULT_TRAIN_OPTIONS, minCount: 1, minCountByPrefix: {} };

describe("trainModel", () => {
  it("gives byte-identical weights for the same inputs", () => {
    const a = JSON.stringify(trainModel(examples, ["work", "context"], options));
    const b = JSON.stringify(trainModel(examples, ["work", "context"], options));
    expect(a).toBe(b);
  });

  it("learns the examples and rounds to 4 decimals", () => {
    const model = trainModel(examples, ["work", "context"], options);
    expect(predict(model, ["bias", "l:add", "l:export"])[0]).toBeGreaterThan(0.7);
    expect(predict(model, ["bias", "l:thanks"])[1]).toBeGreaterThan(0.7);
    for (const v of Object.values(model.weights).flat()) expect(Math.round(v * 1e4) / 1e4).toBe(v);
  });

  it("drops features seen fewer times than minCount", () => {
    const model = trainModel(examples, ["work", "context"], { ...options, minCount: 2 });
    expect(model.weights["l:import"]).toBeUndefined();
    expect(model.weights["l:add"]).toBeDefined();
  });
});

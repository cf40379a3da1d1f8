/**
 * Multinomial logistic regression over sparse binary features (decision 034): small enough to read, train
 * in a second and run in microseconds. Training is deterministic: sorted features, a seeded shuffle, a
 * fixed number of passes, weights rounded to 4 decimals, so the same inputs give byte-identical JSON.
 */

export type Example = { features: readonly string[]; label: string; weight: number };

/** What the weights file holds. */
export type ModelWeights = {
  /** The classes, in the order of each feature's weight vector. */
  classes: string[];
  /** Feature name -> one weight a class. Features seen too rarely in training are left out. */
  weights: Record<string, number[]>;
};

export type TrainOptions = {
  epochs: number;
  learningRate: number;
  /** L2 shrinkage applied once a pass. */
  l2: number;
  /** Features seen in fewer training examples are dropped. */
  minCount: number;
  /** A lower bar for features named with these prefixes (a section heading's words are few but telling). */
  minCountByPrefix: Record<string, number>;
  /** Weight of each class's examples scaled by (examples / (classes * class examples)) ** balance: 0 none, 1 full. */
  balance: number;
  /** Weights closer to zero than this are dropped (they barely move a score and bloat the file). */
  minWeight: number;
  seed: number;
};

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 40,
  learningRate: 0.5,
  l2: 0.002,
  minCount: 8,
  minCountByPrefix: { "h:": 3, "key:": 3 },
  balance: 0.25,
  minWeight: 0.005,
  seed: 34,
};

/** mulberry32: a small seeded generator, the same sequence on every platform. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function softmaxInPlace(z: Float64Array): void {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  for (let i = 0; i < z.length; i++) {
    z[i] = Math.exp(z[i]! - max);
    sum += z[i]!;
  }
  for (let i = 0; i < z.length; i++) z[i]! /= sum;
}

export function trainModel(
  examples: readonly Example[],
  classes: readonly string[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): ModelWeights {
  const counts = new Map<string, number>();
  for (const e of examples) for (const f of new Set(e.features)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts.entries()]
    .filter(([name, n]) => {
      const prefix = Object.keys(options.minCountByPrefix).find((p) => name.startsWith(p));
      return n >= (prefix ? options.minCountByPrefix[prefix]! : options.minCount) || name === "bias";
    })
    .map(([name]) => name)
    .sort();
  const index = new Map(names.map((n, i) => [n, i]));
  const C = classes.length;
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const rows = examples
    .map((e) => ({
      x: [...new Set(e.features)].map((f) => index.get(f)).filter((i): i is number => i !== undefined),
      y: classIndex.get(e.label),
      weight: e.weight,
    }))
    .filter((r): r is { x: number[]; y: number; weight: number } => r.y !== undefined && r.x.length > 0);
  const perClass = new Float64Array(C);
  for (const r of rows) perClass[r.y]! += r.weight;
  const total = perClass.reduce((a, b) => a + b, 0);
  const scale = Array.from(perClass, (n) => (n > 0 ? (total / (C * n)) ** options.balance : 0));
  const w = new Float64Array(names.length * C);
  const z = new Float64Array(C);
  const next = random(options.seed);
  const order = rows.map((_, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = options.learningRate / (1 + epoch * 0.2);
    for (const r of order.map((i) => rows[i]!)) {
      const value = 1 / Math.sqrt(r.x.length);
      z.fill(0);
      for (const f of r.x) for (let c = 0; c < C; c++) z[c]! += w[f * C + c]! * value;
      softmaxInPlace(z);
      for (let c = 0; c < C; c++) {
        const step = rate * r.weight * scale[r.y]! * (z[c]! - (c === r.y ? 1 : 0)) * value;
        if (step !== 0) for (const f of r.x) w[f * C + c]! -= step;
      }
    }
    const shrink = 1 - rate * options.l2;
    for (let i = 0; i < w.length; i++) w[i]! *= shrink;
  }
  const weights: Record<string, number[]> = {};
  names.forEach((name, f) => {
    const vector = Array.from({ length: C }, (_, c) => {
      const v = w[f * C + c]!;
      return Math.abs(v) < options.minWeight ? 0 : Math.round(v * 1e4) / 1e4 || 0;
    });
    if (vector.some((v) => v !== 0)) weights[name] = vector;
  });
  return { classes: [...classes], weights };
}

/** Class probabilities for one set of features, in the order of `model.classes`. */
export function predict(model: ModelWeights, features: readonly string[]): number[] {
  const C = model.classes.length;
  const z = new Float64Array(C);
  const unique = [...new Set(features)];
  // Scale as in training: by the number of features the model knows.
  const known = unique.filter((f) => model.weights[f] !== undefined);
  const value = 1 / Math.sqrt(Math.max(1, known.length));
  for (const f of known) {
    const v = model.weights[f]!;
    for (let c = 0; c < C; c++) z[c]! += v[c]! * value;
  }
  softmaxInPlace(z);
  return Array.from(z);
}

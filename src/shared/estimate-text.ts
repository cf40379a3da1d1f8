/** An estimate range as people read it, on screen and in exported issues and cards: "3 h", "2-5 h (likely 3 h)". */
export function formatRange(range: { low: number; likely: number; high: number }): string {
  const h = (x: number) => `${Math.round(x * 10) / 10}`;
  if (range.low === range.high) return `${h(range.likely)} h`;
  return `${h(range.low)}-${h(range.high)} h (likely ${h(range.likely)} h)`;
}

/**
 * A number of hours the database can keep as it was given: 0, or at least a hundredth of an hour (36
 * seconds). Smaller positive values ("1e-320") are no estimate anyone means, and underflow PostgreSQL's
 * `real` columns (issue 39): they are refused with 422, like a negative number.
 */
export const MIN_HOURS = 0.01;

export const isSensibleHours = (h: number) => h === 0 || h >= MIN_HOURS;

export const sensibleHoursMessage = (name: string) => `${name} must be 0 or at least ${MIN_HOURS} hours`;

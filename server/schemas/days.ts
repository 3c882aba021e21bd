import { z } from 'zod';

/** Pure: client components import it too. */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day: `new Date` reads 2026-02-31 as March 3rd rather than refusing it. */
export function isCalendarDay(text: string) {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export const calendarDay = z.string().refine(isCalendarDay, 'Enter a date as YYYY-MM-DD, like 2026-01-31');

/** The start of a UTC day, and of the day after it. */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
export const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

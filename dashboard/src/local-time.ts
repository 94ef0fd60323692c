/**
 * A `datetime-local` field holds a wall-clock time in the browser's zone (`2026-12-01T10:00`); the
 * API's DateTime is an instant. These two convert between them.
 */

/** The field's value as the API's DateTime; null when the field is empty. */
export const isoFromLocal = (value: string) => (value ? new Date(value).toISOString() : null);

/** An API DateTime as the field shows it, in the browser's zone; '' for none. */
export function localFromIso(iso: string | null | undefined) {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

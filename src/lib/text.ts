/** Whether a client's string holds U+0000, which PostgreSQL cannot store or compare: never look such an id up. */
export function holdsNul(value: string): boolean {
  return value.includes('\u0000');
}

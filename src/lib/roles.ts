/**
 * Team roles (decisions.md "Teams"), weakest first: each has every right of the ones before it.
 * The one list of them: the database's CHECK, the API's enum and the web app's select follow it.
 */
export const ROLES = ['viewer', 'writer', 'editor', 'admin', 'owner'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` has every right of `needed`. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

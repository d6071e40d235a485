import { type Answer, type Client, ok, type RequestBody } from './client.js';

/** Signing in and out, the account and its settings: API keys, teams, auto-plug. */

export type Session = Answer<'/api/v1/auth/session', 'get'>;
export type Account = Session['account'];
export type ApiKey = Answer<'/api/v1/keys', 'get'>['keys'][number];
export type Team = Answer<'/api/v1/teams', 'get'>['teams'][number];
export type AutoPlug = Answer<'/api/v1/auto-plug', 'get'>;
export type AccountChange = RequestBody<'/api/v1/account', 'patch'>;

export function authApi(client: Client) {
  return {
    session: () => ok(client.GET('/api/v1/auth/session')),
    signIn: (email: string, password: string) => ok(client.POST('/api/v1/auth/sign-in', { body: { email, password } })),
    signOut: () => ok(client.POST('/api/v1/auth/sign-out')),
    /** The one-time link's token and the new password: a new session. */
    setPassword: (token: string, password: string) => ok(client.POST('/api/v1/auth/password', { body: { token, password } })),
  };
}

export function accountApi(client: Client) {
  return {
    update: (change: AccountChange) => ok(client.PATCH('/api/v1/account', { body: change })),
    /** A renewed session (other browsers are signed out): its CSRF token replaces the old one. */
    changePassword: (currentPassword: string, password: string) => ok(client.PUT('/api/v1/account/password', { body: { currentPassword, password } })),
  };
}

export function keysApi(client: Client) {
  return {
    list: async () => (await ok(client.GET('/api/v1/keys'))).keys,
    /** The new key, with its secret value (shown only once). */
    create: (name: string) => ok(client.POST('/api/v1/keys', { body: { name } })),
    revoke: (id: string) => ok(client.DELETE('/api/v1/keys/{id}', { params: { path: { id } } })),
  };
}

export type Member = Answer<'/api/v1/teams/{id}/members', 'get'>['members'][number];
export type Role = Member['role'];

export function teamsApi(client: Client) {
  return {
    list: async () => (await ok(client.GET('/api/v1/teams'))).teams,
    members: async (id: string) => (await ok(client.GET('/api/v1/teams/{id}/members', { params: { path: { id } } }))).members,
    addMember: (id: string, email: string, role: Role) => ok(client.POST('/api/v1/teams/{id}/members', { params: { path: { id } }, body: { email, role } })),
    setRole: (id: string, accountId: string, role: Role) =>
      ok(client.PATCH('/api/v1/teams/{id}/members/{accountId}', { params: { path: { id, accountId } }, body: { role } })),
    removeMember: (id: string, accountId: string) => ok(client.DELETE('/api/v1/teams/{id}/members/{accountId}', { params: { path: { id, accountId } } })),
  };
}

export function autoPlugApi(client: Client) {
  return {
    get: (teamId: string) => ok(client.GET('/api/v1/auto-plug', { params: { query: { teamId } } })),
    /**
     * `minLikes` as typed when it is not a whole number: the API's answer then names the field,
     * as it does for every other fault.
     */
    save: (teamId: string, plug: Omit<AutoPlug, 'minLikes'> & { minLikes: number | string }) =>
      ok(client.PUT('/api/v1/auto-plug', { params: { query: { teamId } }, body: plug as RequestBody<'/api/v1/auto-plug', 'put'> })),
  };
}

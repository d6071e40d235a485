import type { ParseArgsConfig } from 'node:util';

/**
 * The command table: names, usage and options only. It imports nothing, so `skein --help` and
 * argument errors answer without loading a database driver, Fastify or a network SDK; a
 * command's handler (src/cli/handlers.ts) is imported only once its arguments parse.
 */
export interface Command {
  name: string;
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  required?: string[];
  /** serve, worker and migrate manage their own process lifetime and database. */
  long?: boolean;
}

const str = { type: 'string' } as const;

export const COMMANDS: Command[] = [
  { name: 'serve', usage: 'serve', summary: 'run the API and the publisher (what npm start does)', options: {}, long: true },
  { name: 'worker', usage: 'worker', summary: 'run only the publisher (any number may run)', options: {}, long: true },
  { name: 'migrate', usage: 'migrate', summary: 'bring the database schema up to date', options: {}, long: true },
  {
    name: 'user create',
    usage: 'user create --email E --timezone Z [--password P]',
    summary: 'create an account',
    options: { email: str, timezone: str, password: str },
    required: ['email', 'timezone'],
  },
  {
    name: 'key create',
    usage: 'key create --email E [--name N]',
    summary: 'create an API key (shown once)',
    options: { email: str, name: str },
    required: ['email'],
  },
  { name: 'key list', usage: 'key list --email E', summary: "list an account's API keys", options: { email: str }, required: ['email'] },
  {
    name: 'key revoke',
    usage: 'key revoke --email E --id KEY_ID',
    summary: 'revoke an API key',
    options: { email: str, id: str },
    required: ['email', 'id'],
  },
  {
    name: 'team create',
    usage: 'team create --email OWNER --name N',
    summary: 'create a team owned by an account',
    options: { email: str, name: str },
    required: ['email', 'name'],
  },
  {
    name: 'team add-member',
    usage: 'team add-member --team ID --email E [--role member|owner]',
    summary: 'add an account to a team',
    options: { team: str, email: str, role: str },
    required: ['team', 'email'],
  },
  {
    name: 'provider add',
    usage: 'provider add --email E --kind THREADS|BLUESKY --provider-user-id ID --username U --access-token T [--team ID] [--service URL]',
    summary: 'register a connected account without OAuth (scripts, tests)',
    options: { email: str, kind: str, 'provider-user-id': str, username: str, 'access-token': str, team: str, service: str },
    required: ['email', 'kind', 'provider-user-id', 'username', 'access-token'],
  },
  {
    name: 'provider list',
    usage: 'provider list --email E [--team ID|personal]',
    summary: 'list connected accounts of a workspace',
    options: { email: str, team: str },
    required: ['email'],
  },
];

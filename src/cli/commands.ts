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
  /** mcp: a client of a running Skein over HTTP; no configuration, no database. */
  client?: boolean;
}

const str = { type: 'string' } as const;

export const COMMANDS: Command[] = [
  { name: 'serve', usage: 'serve', summary: 'run the API and the publisher (what npm start does)', options: {}, long: true },
  { name: 'worker', usage: 'worker', summary: 'run only the publisher (any number may run)', options: {}, long: true },
  {
    name: 'mcp',
    usage: 'mcp',
    summary: 'a stdio MCP server for AI assistants, speaking to the Skein at SKEIN_URL with SKEIN_API_KEY (docs/agents.md)',
    options: {},
    client: true,
  },
  { name: 'migrate', usage: 'migrate', summary: 'bring the database schema up to date', options: {}, long: true },
  {
    name: 'user create',
    usage: 'user create --email E --timezone Z [--password P]',
    summary: 'create an account',
    options: { email: str, timezone: str, password: str },
    required: ['email', 'timezone'],
  },
  {
    name: 'user sign-in-link',
    usage: 'user sign-in-link --email E',
    summary: 'a one-time web link (24 h) to set the password and sign in',
    options: { email: str },
    required: ['email'],
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
    usage: 'team add-member --team ID --email E [--role owner|admin|editor|writer|viewer]',
    summary: 'add an account to a team, or set its role there (editor unless --role)',
    options: { team: str, email: str, role: str },
    required: ['team', 'email'],
  },
  {
    name: 'provider add',
    usage: 'provider add --email E --kind KIND --access-token T [--provider-user-id ID --username U] [--team ID] [--service URL]',
    // The kinds are the registry's (GET /api/v1/networks); a wrong one is answered with the list.
    summary:
      'connect an account with a token (KIND: a network, e.g. THREADS, where the account is read from Meta; the others as given, id and username required)',
    options: { email: str, kind: str, 'provider-user-id': str, username: str, 'access-token': str, team: str, service: str },
    required: ['email', 'kind', 'access-token'],
  },
  {
    name: 'provider list',
    usage: 'provider list --email E [--team ID|personal]',
    summary: 'list connected accounts of a workspace',
    options: { email: str, team: str },
    required: ['email'],
  },
  {
    name: 'slot list',
    usage: 'slot list --email E [--provider ID] [--team ID|personal]',
    summary: "list the time slots of a workspace's providers",
    options: { email: str, provider: str, team: str },
    required: ['email'],
  },
  {
    name: 'slot add',
    usage: 'slot add --email E --provider ID --day 1-7 --time HH:mm [--timezone Z] [--team ID|personal]',
    summary: 'add a weekly posting time (day 1 = Monday) to a provider',
    options: { email: str, provider: str, day: str, time: str, timezone: str, team: str },
    required: ['email', 'provider', 'day', 'time'],
  },
  {
    name: 'slot next',
    usage: 'slot next --email E --provider ID [--count 1-50] [--team ID|personal]',
    summary: "a provider's next free time-slot instants",
    options: { email: str, provider: str, count: str, team: str },
    required: ['email', 'provider'],
  },
  {
    name: 'export',
    usage: 'export --out FILE',
    summary: 'write every row of the database to FILE (JSON lines; stop the server first on the embedded database)',
    options: { out: str },
    required: ['out'],
    long: true,
  },
  {
    name: 'import',
    usage: 'import --in FILE',
    summary: 'load an export into a new, empty database (migrated first), all or nothing',
    options: { in: str },
    required: ['in'],
    long: true,
  },
];

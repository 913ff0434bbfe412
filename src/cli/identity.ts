// CLI commands for people, memberships, agents, keys and approval policies. Keys are printed once,
// here, and never again (only their prefixes are kept).
import type { Command } from './command.ts';
import { UsageError } from './errors.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import type { Community } from '../store/types.ts';
import type { Services } from '../services.ts';
import { systemActor } from '../domain/actor.ts';
import { splitScopes } from '../domain/identity/agents.ts';
import { addressSource, printedMcpUrl } from './printed-urls.ts';
import { cliIo } from './io.ts';

const cli = systemActor('cli');

export async function communityOf(
  services: Services,
  slug: string | undefined,
  usage: string,
): Promise<Community> {
  if (!slug) throw new UsageError(`--community is required.\nUsage: ${usage}`);
  return services.communities.require(cli, slug);
}

function days(value: string | undefined, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(
      `--expires-in-days must be a whole number of days (1 or more).\nUsage: ${usage}`,
    );
  return n;
}

export function required(values: Record<string, unknown>, names: string[], usage: string): void {
  for (const n of names)
    if (values[n] === undefined || values[n] === '')
      throw new UsageError(`--${n} is required.\nUsage: ${usage}`);
}

const USER_CREATE =
  'hamlet user create --email <email> (--password <password> | --password-stdin) [--name <display name>]';
export const userCreateCommand: Command = {
  name: 'user create',
  summary: 'create a person account: --email … --password …|--password-stdin [--name …]',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      {
        email: { type: 'string' },
        password: { type: 'string' },
        'password-stdin': { type: 'boolean', default: false },
        name: { type: 'string' },
      },
      USER_CREATE,
    );
    required(values, ['email'], USER_CREATE);
    // --password-stdin keeps the password out of the shell history and the process list.
    const password = values['password-stdin']
      ? (await readStdin()).replace(/\r?\n$/, '')
      : values.password;
    if (!password)
      throw new UsageError(
        `Give the password with --password or on standard input with --password-stdin.\nUsage: ${USER_CREATE}`,
      );
    await withHamlet(async (store, config, services) => {
      const person = await services.accounts.createUser(cli, {
        email: values.email!,
        password,
        name: values.name,
      });
      console.log(
        `Created user ${person.email} (${person.id}), display name "${person.displayName}".`,
      );
    });
  },
};

const MEMBER_ADD =
  'hamlet member add --community <slug> --email <email> --role owner|admin|moderator|member';
export const memberAddCommand: Command = {
  name: 'member add',
  summary: 'give a person a role in a community: --community … --email … --role …',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
      MEMBER_ADD,
    );
    required(values, ['community', 'email', 'role'], MEMBER_ADD);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, MEMBER_ADD);
      const m = await services.accounts.addMember(cli, community, {
        email: values.email!,
        role: values.role!,
      });
      console.log(`${values.email} is now ${m.role} of "${community.slug}".`);
    });
  },
};

const MEMBER_REMOVE = 'hamlet member remove --community <slug> --email <email>';
export const memberRemoveCommand: Command = {
  name: 'member remove',
  summary: 'take a person out of a community (the last owner stays): --community … --email …',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, email: { type: 'string' } },
      MEMBER_REMOVE,
    );
    required(values, ['community', 'email'], MEMBER_REMOVE);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, MEMBER_REMOVE);
      await services.accounts.removeMember(cli, community, { email: values.email! });
      console.log(`${values.email} is no longer a member of "${community.slug}".`);
    });
  },
};

const MEMBER_LIST = 'hamlet member list --community <slug>';
export const memberListCommand: Command = {
  name: 'member list',
  summary: 'the members of a community and their roles: --community …',
  async run(args) {
    const { values } = parseCommandArgs(args, { community: { type: 'string' } }, MEMBER_LIST);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, MEMBER_LIST);
      for (const m of await services.accounts.listMembers(cli, community))
        console.log(`${m.role.padEnd(9)} ${m.email ?? m.personId}  ${m.displayName}`);
    });
  },
};

const AGENT_CREATE =
  'hamlet agent create --community <slug> --name <name> [--scopes topic:create,post:create,…] [--trusted] [--expires-in-days N]';
export const agentCreateCommand: Command = {
  name: 'agent create',
  summary:
    'create an agent with scopes and print its first key: --community … --name … [--scopes …] [--trusted]',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      {
        community: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        trusted: { type: 'boolean', default: false },
        'expires-in-days': { type: 'string' },
      },
      AGENT_CREATE,
    );
    required(values, ['community', 'name'], AGENT_CREATE);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, AGENT_CREATE);
      const created = await services.agents.create(cli, community, {
        name: values.name!,
        scopes: splitScopes(values.scopes) as never,
        trusted: values.trusted ?? false,
        expiresInDays: days(values['expires-in-days'], AGENT_CREATE),
      });
      console.log(`Created agent "${created.agent.name}" in "${community.slug}".`);
      console.log(`agent id: ${created.agent.id}`);
      console.log(
        `scopes:   ${created.agent.scopes.join(', ') || '(none: read only)'}${created.agent.trusted ? ' (trusted: bypasses approvals)' : ''}`,
      );
      console.log(`key:      ${created.key}`);
      console.log(`MCP URL:  ${printedMcpUrl(config, community.slug)}   ${addressSource(config)}`);
      console.log('Store the key now: it is shown only once (Hamlet keeps a hash).');
    });
  },
};

const KEY_MINT = 'hamlet key mint --community <slug> --agent <id or name> [--expires-in-days N]';
export const keyMintCommand: Command = {
  name: 'key mint',
  summary: 'mint another key for an agent: --community … --agent … [--expires-in-days N]',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      {
        community: { type: 'string' },
        agent: { type: 'string' },
        'expires-in-days': { type: 'string' },
      },
      KEY_MINT,
    );
    required(values, ['community', 'agent'], KEY_MINT);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, KEY_MINT);
      const minted = await services.agents.mintKey(cli, community, {
        agent: values.agent!,
        expiresInDays: days(values['expires-in-days'], KEY_MINT),
      });
      console.log(`key: ${minted.key}`);
      console.log(
        `prefix ${minted.keyRecord.prefix}, id ${minted.keyRecord.id}${minted.keyRecord.expiresAt ? `, expires ${minted.keyRecord.expiresAt}` : ''}`,
      );
      console.log('Store the key now: it is shown only once (Hamlet keeps a hash).');
    });
  },
};

const KEY_REVOKE = 'hamlet key revoke --community <slug> (--prefix <hmlt_live_…> | --id <key id>)';
export const keyRevokeCommand: Command = {
  name: 'key revoke',
  summary: 'revoke an agent key by prefix or id: --community … --prefix …|--id …',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, prefix: { type: 'string' }, id: { type: 'string' } },
      KEY_REVOKE,
    );
    const ref = values.id ?? values.prefix;
    if (!ref) throw new UsageError(`Say which key: --prefix or --id.\nUsage: ${KEY_REVOKE}`);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, KEY_REVOKE);
      const revoked = await services.agents.revokeKey(cli, community, { key: ref });
      console.log(`Revoked key ${revoked.prefix}… (${revoked.id}) of agent ${revoked.agentId}.`);
    });
  },
};

const KEY_LIST = 'hamlet key list --community <slug> [--agent <id or name>]';
export const keyListCommand: Command = {
  name: 'key list',
  summary:
    'list agent keys by prefix with last use, expiry and revocation: --community … [--agent …]',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, agent: { type: 'string' } },
      KEY_LIST,
    );
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, KEY_LIST);
      const keys = await services.agents.listKeys(cli, community, { agent: values.agent });
      if (keys.length === 0) console.log('No keys.');
      for (const k of keys) {
        const state = k.revokedAt
          ? `revoked ${k.revokedAt}`
          : k.expiresAt
            ? `expires ${k.expiresAt}`
            : 'no expiry';
        console.log(
          `${k.prefix}…  id ${k.id}  agent ${k.agentId}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${state}`,
        );
      }
    });
  },
};

const USER_KEY_MINT = 'hamlet user key mint --email <email> [--expires-in-days N]';
export const userKeyMintCommand: Command = {
  name: 'user key mint',
  summary: "mint a person's user key (hmlt_u_…) for the network server: --email …",
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { email: { type: 'string' }, 'expires-in-days': { type: 'string' } },
      USER_KEY_MINT,
    );
    required(values, ['email'], USER_KEY_MINT);
    await withHamlet(async (store, config, services) => {
      const minted = await services.accounts.mintUserKey(cli, {
        email: values.email!,
        expiresInDays: days(values['expires-in-days'], USER_KEY_MINT),
      });
      console.log(`key: ${minted.key}`);
      console.log(
        `prefix ${minted.record.prefix}, id ${minted.record.id}${minted.record.expiresAt ? `, expires ${minted.record.expiresAt}` : ''}`,
      );
      console.log('Store the key now: it is shown only once (Hamlet keeps a hash).');
    });
  },
};

const USER_KEY_REVOKE =
  'hamlet user key revoke --email <email> (--prefix <hmlt_u_…> | --id <key id>)';
export const userKeyRevokeCommand: Command = {
  name: 'user key revoke',
  summary: "revoke a person's user key: --email … --prefix …|--id …",
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { email: { type: 'string' }, prefix: { type: 'string' }, id: { type: 'string' } },
      USER_KEY_REVOKE,
    );
    required(values, ['email'], USER_KEY_REVOKE);
    const ref = values.id ?? values.prefix;
    if (!ref) throw new UsageError(`Say which key: --prefix or --id.\nUsage: ${USER_KEY_REVOKE}`);
    await withHamlet(async (store, config, services) => {
      const n = await services.accounts.revokeUserKey(cli, { email: values.email!, key: ref });
      console.log(`Revoked ${n} user key${n === 1 ? '' : 's'}.`);
    });
  },
};

const POLICY =
  'hamlet community policy --community <slug> [--kind topic.create|post.create|solution.mark|article.write --mode auto|approval]';
export const communityPolicyCommand: Command = {
  name: 'community policy',
  summary:
    'show or set the approval policy per write kind: --community … [--kind … --mode auto|approval]',
  async run(args) {
    const { values } = parseCommandArgs(
      args,
      { community: { type: 'string' }, kind: { type: 'string' }, mode: { type: 'string' } },
      POLICY,
    );
    if ((values.kind === undefined) !== (values.mode === undefined))
      throw new UsageError(`Give --kind and --mode together.\nUsage: ${POLICY}`);
    await withHamlet(async (store, config, services) => {
      const community = await communityOf(services, values.community, POLICY);
      const ids = services;
      if (values.kind)
        await ids.approvals.setPolicy(cli, community, { kind: values.kind, mode: values.mode! });
      const policies = await ids.approvals.getPolicies(cli, community);
      for (const [kind, mode] of Object.entries(policies))
        console.log(`${kind.padEnd(14)} ${mode}`);
    });
  },
};

export const identityCommands: Command[] = [
  userCreateCommand,
  memberAddCommand,
  memberRemoveCommand,
  memberListCommand,
  agentCreateCommand,
  keyMintCommand,
  keyRevokeCommand,
  keyListCommand,
  userKeyMintCommand,
  userKeyRevokeCommand,
  communityPolicyCommand,
];

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of cliIo().stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// `hamlet oauth …`: a community's OAuth from the command line: which apps may connect (the trust
// policy), the apps its administrators registered, and the connections people made (listed, and
// disconnected), and the installation's token signing key (rotated). The operator acts as the
// system, like every administrative command.
import type { Command } from './command.ts';
import { communityOf, required } from './identity.ts';
import { parseCommandArgs, withHamlet } from './with-hamlet.ts';
import { systemActor } from '../domain/actor.ts';

const cli = systemActor('cli');
const POLICY =
  'hamlet oauth policy --community <slug> [--mode any|domains|registered] [--domains claude.ai,chatgpt.com]';
const ADD =
  'hamlet oauth client add --community <slug> --name <name> (--client-id <metadata document URL> | --redirect-uri <uri> …)';
const LIST = 'hamlet oauth client list --community <slug>';
const REMOVE = 'hamlet oauth client remove --community <slug> --client-id <id>';
const GRANTS = 'hamlet oauth grants --community <slug>';
const REVOKE = 'hamlet oauth revoke --community <slug> --grant <grant id>';
const ROTATE = 'hamlet oauth rotate-key [--revoke-previous]';

export const oauthCommands: Command[] = [
  {
    name: 'oauth policy',
    summary:
      'show or set which apps may connect with OAuth: --community … [--mode any|domains|registered] [--domains …]',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, mode: { type: 'string' }, domains: { type: 'string' } },
        POLICY,
      );
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, POLICY);
        const policy = values.mode
          ? await services.oauth.clients.setPolicy(cli, community, {
              mode: values.mode,
              allowedDomains: (values.domains ?? '')
                .split(',')
                .map((d) => d.trim())
                .filter(Boolean),
            })
          : await services.oauth.clients.policy(community);
        console.log(
          `${community.slug}: ${policy.mode}${policy.allowedDomains.length ? ` (${policy.allowedDomains.join(', ')})` : ''}`,
        );
      });
    },
  },
  {
    name: 'oauth client add',
    summary:
      'register an app (its metadata document URL, or a new client id with redirect URIs): --community … --name …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        {
          community: { type: 'string' },
          name: { type: 'string' },
          'client-id': { type: 'string' },
          'redirect-uri': { type: 'string', multiple: true },
        },
        ADD,
      );
      required(values, ['community', 'name'], ADD);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, ADD);
        const client = await services.oauth.clients.addRegistered(cli, community, {
          name: values.name!,
          clientId: values['client-id'],
          redirectUris: values['redirect-uri'],
        });
        console.log(
          `Registered ${client.name} with "${community.slug}": client_id ${client.clientId}`,
        );
      });
    },
  },
  {
    name: 'oauth client list',
    summary: 'list the apps registered with a community: --community …',
    async run(args) {
      const { values } = parseCommandArgs(args, { community: { type: 'string' } }, LIST);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, LIST);
        const clients = await services.oauth.clients.listRegistered(cli, community);
        console.log(
          clients.length
            ? clients
                .map(
                  (c) =>
                    `${c.clientId}  ${c.kind.padEnd(10)}  ${c.name}  ${c.redirectUris.join(' ')}`,
                )
                .join('\n')
            : `No apps registered with "${community.slug}".`,
        );
      });
    },
  },
  {
    name: 'oauth client remove',
    summary: 'remove a registered app: --community … --client-id …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, 'client-id': { type: 'string' } },
        REMOVE,
      );
      required(values, ['community', 'client-id'], REMOVE);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, REMOVE);
        await services.oauth.clients.removeRegistered(cli, community, values['client-id']!);
        console.log(`Removed ${values['client-id']} from "${community.slug}".`);
      });
    },
  },
  {
    name: 'oauth grants',
    summary: 'list the apps people connected to a community: --community …',
    async run(args) {
      const { values } = parseCommandArgs(args, { community: { type: 'string' } }, GRANTS);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, GRANTS);
        const grants = await services.oauth.connections.all(cli, community);
        console.log(
          grants.length
            ? grants
                .map(
                  (g) =>
                    `${g.id}  ${g.clientName}  for ${g.personName}  [${g.scopes.join(' ')}]  last used ${g.lastUsedAt?.slice(0, 10) ?? 'never'}`,
                )
                .join('\n')
            : `No apps are connected to "${community.slug}".`,
        );
      });
    },
  },
  {
    name: 'oauth revoke',
    summary: 'disconnect an app (its tokens stop at once): --community … --grant …',
    async run(args) {
      const { values } = parseCommandArgs(
        args,
        { community: { type: 'string' }, grant: { type: 'string' } },
        REVOKE,
      );
      required(values, ['community', 'grant'], REVOKE);
      await withHamlet(async (_store, _config, services) => {
        const community = await communityOf(services, values.community, REVOKE);
        const revoked = await services.oauth.connections.revoke(cli, community, values.grant!);
        console.log(
          `Disconnected ${revoked.clientName} of ${revoked.personName} from "${community.slug}".`,
        );
      });
    },
  },
  {
    name: 'oauth rotate-key',
    summary:
      'sign access tokens with a new key (the previous one verifies until its tokens expire; --revoke-previous: now stops)',
    async run(args) {
      const { values } = parseCommandArgs(args, { 'revoke-previous': { type: 'boolean' } }, ROTATE);
      await withHamlet(async (_store, _config, services) => {
        const rotation = await services.oauth.keys.rotate({
          revokePrevious: values['revoke-previous'] === true,
        });
        console.log(
          `Access tokens are now signed with key ${rotation.kid}.` +
            (rotation.kept.length
              ? ` Key ${rotation.kept[0]} still verifies the tokens it signed until they expire.`
              : '') +
            (rotation.forgotten.length
              ? ` Forgotten: ${rotation.forgotten.join(', ')} (tokens they signed no longer work; apps refresh).`
              : ''),
        );
      });
    },
  },
];

// What `hamlet serve` says once it listens, in two forms of the same facts. On a terminal (stdout a
// TTY): lines for the person reading them, on stderr. Otherwise (systemd, a container, a pipe):
// one JSON log line on the log stream, msg "Hamlet is running", with the addresses as fields, so
// that the stream stays JSON lines (at info, written at any LOG_LEVEL but silent). The demo's secrets (its agent key, its administrator's password) go to
// the terminal only: the JSON line names the file that keeps them (mode 0600), never the secrets.
import type { Logger } from '../log.ts';
import type { DemoCredentials } from '../demo/demo-credentials.ts';

/** The msg of the JSON start line. */
export const START_MESSAGE = 'Hamlet is running';

export type StartFacts = {
  /** Where this instance listens (scheme, base domain, port). */
  url: string;
  /** The network's MCP endpoint, and a community's (`<slug>` in it). */
  mcpNetwork: string;
  mcpCommunity: string;
  /** The path form on this machine (no HAMLET_PUBLIC_ORIGIN): every MCP client reaches it. */
  pathForm: boolean;
  demo?: DemoCredentials & { mcp: string; web: string };
};

/** The fields of the JSON start line (msg "Hamlet is running"). */
export function startLogFields(facts: StartFacts): Record<string, unknown> {
  const { demo } = facts;
  return {
    url: facts.url,
    mcp_network: facts.mcpNetwork,
    mcp_community: facts.mcpCommunity,
    path_form: facts.pathForm,
    ...(demo && {
      demo: {
        community: demo.community,
        mcp: demo.mcp,
        web: demo.web,
        signin: `${demo.web}signin`,
        agent_key: demo.newKey ? 'new' : 'the same as before',
        admin_email: demo.admin?.email,
        admin_password: demo.admin ? (demo.admin.fresh ? 'new' : 'the same as before') : undefined,
        credentials_file: demo.file,
      },
    }),
  };
}

/** The lines for a person at a terminal. */
export function startLines(facts: StartFacts): string[] {
  const reach = facts.pathForm ? '   (path form: every MCP client reaches it)' : '';
  const { demo } = facts;
  if (!demo)
    return [
      '',
      'Hamlet is running.',
      `  MCP network:    ${facts.mcpNetwork}`,
      `  a community:    ${facts.mcpCommunity}${reach}`,
      '',
    ];
  const { admin, mcp, web } = demo;
  const kept = `kept in ${demo.file}`;
  return [
    '',
    'Hamlet is running with the demo community.',
    `  MCP (acme):   ${mcp}${reach}`,
    `  web (acme):   ${web}`,
    `  MCP network:  ${facts.mcpNetwork}`,
    `  agent key:    ${demo.key}   (acme's demo-agent; ${demo.newKey ? 'new' : 'the same as before'}, ${kept})`,
    ...(admin
      ? [
          `  sign in:      ${web}signin   e-mail ${admin.email}   password ${admin.password}`,
          `                (acme's and skunkworks' administrator; ${admin.fresh ? 'new' : 'the same as before'}, ${kept})`,
        ]
      : []),
    '',
    'Try it:',
    `  curl -sS ${mcp} -H 'content-type: application/json' -H 'authorization: Bearer ${demo.key}' \\`,
    `    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_community","arguments":{"query":"webhook signature verification"}}}'`,
    ...(admin
      ? [
          `  sign in at ${web}signin, then open ${web}admin (members, agents and keys, settings) and ${web}approvals`,
        ]
      : []),
    '',
  ];
}

/** Says it: human lines on stderr when stdout is a terminal, else the JSON start line. */
export function announceStart(
  facts: StartFacts,
  logger: Logger,
  out: { stdoutIsTty: boolean; stderr: NodeJS.WritableStream },
): void {
  if (out.stdoutIsTty) out.stderr.write(startLines(facts).join('\n'));
  // Written at info whatever LOG_LEVEL says but silent, as the human lines are on a terminal: a
  // quiet log (warn, error) still says where the instance serves.
  else
    logger
      .child({}, { level: logger.level === 'silent' ? 'silent' : 'info' })
      .info(startLogFields(facts), START_MESSAGE);
}

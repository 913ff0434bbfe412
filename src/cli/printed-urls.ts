// The addresses the CLI prints, and where they come from: HAMLET_PUBLIC_ORIGIN when it is set (the
// host form, as production serves it), else the path form on this machine at PORT, which is only
// right for a server started with the same PORT: the note says so, so nobody is misled by a default.
import type { Config } from '../config/config.ts';
import { hasPublicOrigin, listedMcpUrl, listedOrigin } from '../domain/urls.ts';

/** Where the printed addresses come from, for the person reading them. */
export function addressSource(config: Config): string {
  return hasPublicOrigin(config)
    ? '(from HAMLET_PUBLIC_ORIGIN)'
    : `(a server on this machine at PORT=${config.port}; set PORT as the server has it, or HAMLET_PUBLIC_ORIGIN for a public one)`;
}

/** A community's web address as printed. */
export const printedWebUrl = (config: Config, slug: string) => `${listedOrigin(config, slug)}/`;

/** A community's MCP endpoint as printed. */
export const printedMcpUrl = (config: Config, slug: string) => listedMcpUrl(config, slug);

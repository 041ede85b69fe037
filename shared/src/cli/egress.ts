// Where a local headless Chromium (`sightline mcp --headless`, `sightline replay`) may go: the
// same host policy as the server's /v1/observe, and the same default (public addresses only).
// A person opens hosts on their own machine or intranet with `--allow-private-hosts LIST` or
// SIGHTLINE_ALLOW_PRIVATE_HOSTS (the flag wins), in the syntax the server uses.
import { parseAllowList, PolicyError, type HostPolicy } from "../net/index.js";
import { CliError, EXIT } from "./exit-codes.js";

export const ALLOW_FLAG = "--allow-private-hosts";

/** The policy from `--allow-private-hosts LIST` (value at `args[i + 1]`) or the environment. */
export function hostPolicy(args: string[], env: NodeJS.ProcessEnv, usage: string): HostPolicy {
  const at = args.indexOf(ALLOW_FLAG);
  const flag = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && (flag === undefined || flag.startsWith("--"))) throw new CliError(`${ALLOW_FLAG} needs a list (hosts, .suffixes, IPs, CIDRs, or *)\n\n${usage}`, EXIT.usage);
  const spec = flag ?? env.SIGHTLINE_ALLOW_PRIVATE_HOSTS;
  try {
    return parseAllowList(spec);
  } catch (err) {
    if (err instanceof PolicyError) throw new CliError(at >= 0 ? err.message.replace("SIGHTLINE_ALLOW_PRIVATE_HOSTS", ALLOW_FLAG) : err.message, EXIT.usage);
    throw err;
  }
}

/**
 * nft: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NFT_TIERS = [...rows("privileged", ["nft *"])];

export const NFT: CommandSpec = { tiers: NFT_TIERS };

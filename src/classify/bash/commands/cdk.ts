/**
 * cdk: by subcommand, spend for `cdk deploy *`; destructive for `cdk destroy *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CDK_TIERS = [...rows("spend", ["cdk deploy *"]), ...rows("destructive", ["cdk destroy *"])];

export const CDK: CommandSpec = { tiers: CDK_TIERS };

/**
 * serverless: spend: it creates or scales billable resources. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SERVERLESS_TIERS = [...rows("spend", ["serverless deploy *"])];

export const SERVERLESS: CommandSpec = { tiers: SERVERLESS_TIERS };

/**
 * firebase: spend: it creates or scales billable resources. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FIREBASE_TIERS = [...rows("spend", ["firebase deploy *"])];

export const FIREBASE: CommandSpec = { tiers: FIREBASE_TIERS };

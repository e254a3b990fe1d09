/**
 * pkexec: it runs a command as another user (privileged, and so is the command).
 */
import { asUser } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

export const PKEXEC: CommandSpec = {
	tiers: rows("privileged", ["pkexec *"]),
	unwrap: asUser("pkexec", valueTaking(opts("--user="))),
};

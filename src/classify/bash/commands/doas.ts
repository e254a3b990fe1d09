/**
 * doas: it runs a command as another user (privileged, and so is the command).
 */
import { asUser } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

export const DOAS: CommandSpec = {
	tiers: rows("privileged", ["doas *"]),
	unwrap: asUser("doas", valueTaking(opts("-u=", "-C="))),
};

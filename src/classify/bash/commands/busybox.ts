/**
 * busybox: it runs the applet named by its first word, which is then classified as that command; neutral itself.
 */
import type { BashWord } from "../bash-word.ts";
import { argvInner, NEUTRAL, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

function unwrapBusybox(args: readonly BashWord[]): Unwrapped {
	return { self: NEUTRAL, inner: argvInner(args, "busybox") };
}

export const BUSYBOX: CommandSpec = { unwrap: unwrapBusybox };

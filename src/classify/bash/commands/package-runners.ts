/**
 * What the package runners share (npx, bunx, uvx, `npm exec`, `pnpm dlx`, `uv run`, …): a package fetched from
 * the network and run is network-egress, and so is whatever it runs; a local runner's command is classified on
 * its own. Each runner's file says which of its subcommands run what.
 */

import { ownEntry } from "../../own-entry.ts";
import type { TierRaise } from "../../tier-raise.ts";
import { argvInner, fromFirstOperand, scanWords, tailAfter, type Unwrapper } from "../wrapper-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

const DOWNLOADED: TierRaise = { tier: "network-egress", reason: "runs a package fetched from the network" };

/** npx's options that take a value (`npm exec` and `pnpm dlx` take the same). */
export const NPX_VALUE = valueTaking(
	opts(
		"-p=",
		"--package=",
		"-c=",
		"--call=",
		"--cache=",
		"--registry=",
		"--userconfig=",
		"-w=",
		"--workspace=",
	),
);
/** The value-taking options of uv-style runners (`uvx`, `bunx`, `yarn dlx`, `pipx run`, `uv run`). */
export const UV_RUN_VALUE = valueTaking(
	opts(
		"--with=",
		"--with-requirements=",
		"--python=",
		"-p=",
		"--project=",
		"--directory=",
		"--env-file=",
		"--extra=",
		"--group=",
		"--package=",
		"--index=",
		"--from=",
	),
);

export function packageRunner(via: string, withValue: ReadonlySet<string>): Unwrapper {
	return (args) => {
		const scanned = scanWords(args, withValue);
		const call = scanned.options.find((option) => option.name === "-c" || option.name === "--call");
		if (call !== undefined) {
			const word =
				call.valueIndex !== undefined ? args[call.valueIndex] : tailAfter(args[call.index], call.value ?? "");
			return {
				self: DOWNLOADED,
				inner: word === undefined ? [] : [{ kind: "shell", code: [word], via, floor: DOWNLOADED }],
			};
		}
		return {
			self: DOWNLOADED,
			inner: argvInner(fromFirstOperand(args, scanned), via, { floor: DOWNLOADED }),
		};
	};
}

export interface RunnerSubcommands {
	/** Subcommands that fetch a package and run it, with the runner's value-taking options. */
	readonly fetches?: Readonly<Record<string, ReadonlySet<string>>>;
	/** Subcommands that run a local command (`uv run`, `bundle exec`). */
	readonly local?: readonly string[];
}

/** A tool whose subcommand runs a command; `afterGlobal` skips its global options to find the subcommand. */
export function subcommandRunner(
	subcommands: RunnerSubcommands,
	afterGlobal: (args: readonly string[]) => readonly string[] = (args) => args,
): Unwrapper {
	return (args, name) => {
		const texts = args.map((word) => word.text);
		const offset = args.length - afterGlobal(texts).length;
		const sub = texts[offset];
		if (sub === undefined) return undefined;
		const rest = args.slice(offset + 1);
		const downloads = `${name} ${sub}`;
		const fetched = ownEntry(subcommands.fetches ?? {}, sub);
		if (fetched !== undefined) return packageRunner(downloads, fetched)(rest, downloads);
		if (!(subcommands.local ?? []).includes(sub)) return undefined;
		const scanned = scanWords(rest, UV_RUN_VALUE);
		return { inner: argvInner(fromFirstOperand(rest, scanned), downloads) };
	};
}

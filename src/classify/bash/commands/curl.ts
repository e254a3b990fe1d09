/**
 * curl: it reaches another machine (network-egress); `-o`, `-c`, `-D` and the like write files, `-T`, `-K`, `-d
 * @file` and `-F x=@file` read them. Read-only only as `--version` alone.
 */
import type { PathAccess } from "../../action.ts";
import type { BashWord } from "../bash-word.ts";
import { scanArgs } from "../option-scan.ts";
import { fromValueText, fromWord, type PathCandidate } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { versionOnly } from "./read-only-helpers.ts";

/** curl's options that take a value. */
const CURL_VALUE = valueTaking(
	opts(
		"-o=",
		"--output=",
		"-T=",
		"--upload-file=",
		"-d=",
		"--data=",
		"--data-binary=",
		"--data-raw=",
		"--data-ascii=",
		"--data-urlencode=",
		"--json=",
		"-F=",
		"--form=",
		"-K=",
		"--config=",
		"-H=",
		"--header=",
		"-X=",
		"--request=",
		"-u=",
		"--user=",
		"-A=",
		"--user-agent=",
		"-e=",
		"--referer=",
		"-b=",
		"--cookie=",
		"-c=",
		"--cookie-jar=",
		"-x=",
		"--proxy=",
		"-m=",
		"--max-time=",
		"--connect-timeout=",
		"-w=",
		"--write-out=",
		"--cacert=",
		"--cert=",
		"--key=",
		"-E=",
		"--retry=",
		"-r=",
		"--range=",
		"--url=",
		"--resolve=",
		"-D=",
		"--dump-header=",
		"--output-dir=",
		"--trace=",
		"--trace-ascii=",
		"--stderr=",
		"--netrc-file=",
	),
);

function extractCurl(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: CURL_VALUE, stopAtOperand: false },
	);
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		const value = option.value;
		if (value === undefined) continue;
		const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
		const path = (access: PathAccess, strip = 0): PathCandidate =>
			word === undefined
				? fromValueText(args[option.index], value.slice(strip), access)
				: fromWord(word, access, strip);
		switch (option.name) {
			case "-o":
			case "--output":
			case "-c":
			case "--cookie-jar":
			case "-D":
			case "--dump-header":
			case "--output-dir":
			case "--trace":
			case "--trace-ascii":
			case "--stderr":
				out.push(path("write"));
				break;
			case "-T":
			case "--upload-file":
			case "-K":
			case "--config":
			case "--netrc-file":
			case "--cert":
			case "--key":
				out.push(path("read"));
				break;
			case "-d":
			case "--data":
			case "--data-binary":
			case "--data-ascii":
			case "--data-urlencode":
			case "--json":
				// `@-` is stdin.
				if (value.startsWith("@") && value !== "@-") out.push(path("read", 1));
				break;
			case "-F":
			case "--form": {
				const at = /^[^=]*=[@<]/.exec(value);
				if (at !== null && value.slice(at[0].length) !== "-") out.push(path("read", at[0].length));
				break;
			}
			default:
				break;
		}
	}
	return out;
}

const CURL_TIERS = [...rows("network-egress", ["curl *"])];

export const CURL: CommandSpec = {
	readOnly: versionOnly(["-V"]),
	tiers: CURL_TIERS,
	extractPaths: extractCurl,
};

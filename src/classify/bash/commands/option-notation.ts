/**
 * The one notation every command file (commands/) writes its options in, and the views the engines take of it:
 * the read proof matches the specs themselves; path extraction, the tier lookup's global options and the
 * wrappers only need to know which options take a value and which value names a file.
 *
 * `opts(...)`: aliases separated by spaces; `=` takes a value (a separate word, or attached: `-n5`, `--lines=5`);
 * `[=]` an optional value, attached only; `=@` a value naming a file that is read; `=>` one naming a file that
 * is written.
 */
import type { Tier } from "../../../vocabulary/tier.ts";
import type { PathAccess } from "../../action.ts";
import type { OptionSpec } from "../read-only-spec.ts";

/**
 * Option specs from their spellings: `-n= --lines=` (a value), `--color[=]` (an optional value, attached only),
 * `-f=@` (a value naming a file read), a bare name (no value). Each spelling carries its own marker, since a
 * tool may give the short and long forms different syntax (`git log --pretty[=]` but `--format=`); spellings
 * with the same marker form one spec.
 */
export function opts(...specs: readonly string[]): OptionSpec[] {
	const out: OptionSpec[] = [];
	// A plain loop over the spellings: this runs for every table entry at every session start (adr/0028).
	for (const spec of specs) {
		const byMarker = new Map<OptionMarker, string[]>();
		for (const spelling of spec.split(" ")) {
			const marker = markerOf(spelling);
			const names = byMarker.get(marker);
			const name = spelling.slice(0, spelling.length - marker.length);
			if (names) names.push(name);
			else byMarker.set(marker, [name]);
		}
		for (const [marker, names] of byMarker) out.push({ names, ...OPTION_VALUE[marker] });
	}
	return out;
}

type OptionMarker = "" | "=" | "[=]" | "=@" | "=>";

const OPTION_VALUE: Readonly<Record<OptionMarker, Omit<OptionSpec, "names">>> = {
	"": {},
	"=": { value: "required" },
	"[=]": { value: "optional" },
	"=@": { value: "required", valuePath: "read" },
	"=>": { value: "required", valuePath: "write" },
};

function markerOf(spelling: string): OptionMarker {
	if (spelling.endsWith("[=]")) return "[=]";
	if (spelling.endsWith("=@")) return "=@";
	if (spelling.endsWith("=>")) return "=>";
	return spelling.endsWith("=") ? "=" : "";
}

/** An option that makes the command more than a read. */
export function raising(tier: Tier, reason: string, spec: string, valuePath?: PathAccess): OptionSpec {
	const [option] = opts(spec);
	return { ...(option ?? { names: [spec] }), raise: { tier, reason }, ...(valuePath ? { valuePath } : {}) };
}

/** Every spelling of the options that take a value in a separate word or attached (`-n 5`, `-n5`). */
export function valueTaking(specs: readonly OptionSpec[]): ReadonlySet<string> {
	return new Set(
		specs.flatMap((spec) => (spec.value === "required" || (spec.values ?? 0) > 0 ? spec.names : [])),
	);
}

/** Every spelling of the options whose value is optional and only ever attached (`--color=auto`, `-i.bak`). */
export function attachedOnly(specs: readonly OptionSpec[]): ReadonlySet<string> {
	return new Set(specs.flatMap((spec) => (spec.value === "optional" ? spec.names : [])));
}

/** Every spelling of the options that take no value. */
export function flags(specs: readonly OptionSpec[]): ReadonlySet<string> {
	return new Set(
		specs.flatMap((spec) => (spec.value === undefined && spec.values === undefined ? spec.names : [])),
	);
}

/** Every spelling of the options whose value names a file the command touches so. */
export function naming(specs: readonly OptionSpec[], access: PathAccess): readonly string[] {
	return specs.flatMap((spec) => (spec.valuePath === access ? spec.names : []));
}

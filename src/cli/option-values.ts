import { usageError } from "./cli-error.ts";

type RawValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** Typed reads of parseArgs results (its value type is loose when the option set is built at run time). */
export class OptionValues {
	private readonly values: RawValues;

	constructor(values: RawValues) {
		this.values = values;
	}

	string(name: string): string | undefined {
		const value = this.values[name];
		if (value === undefined) return undefined;
		if (typeof value !== "string") throw usageError(`--${name} needs a value`);
		return value;
	}

	flag(name: string): boolean {
		return this.values[name] === true;
	}
}

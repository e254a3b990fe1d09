/**
 * A bash call's command that nothing but the gate can change (adr/0017). The gate freezes the input it decides on
 * (pi runs that very object), but where the gate itself must rewrite the allowed command into the sandbox — another
 * tool than its own runs the call — the command becomes a read-only accessor first: frozen with the rest of the
 * input, it refuses every assignment (a handler after the gate's fails as on a frozen input), and only the slot
 * kept here sets what it returns.
 */

const slots = new WeakMap<object, (command: string) => void>();

/**
 * Make `input.command` changeable by the gate alone; false when it cannot be (no string command, or the input is
 * already frozen or sealed by someone else) — then the gate cannot rewrite it either.
 */
export function sealCommand(input: object): boolean {
	if (slots.has(input)) return true;
	const property = Object.getOwnPropertyDescriptor(input, "command");
	if (
		property === undefined ||
		typeof property.value !== "string" ||
		!property.writable ||
		!property.configurable ||
		!Object.isExtensible(input)
	)
		return false;
	let command: string = property.value;
	Object.defineProperty(input, "command", { get: () => command, enumerable: true, configurable: false });
	slots.set(input, (next) => {
		command = next;
	});
	return true;
}

/** Set the command of an input `sealCommand` sealed; false for any other input (nothing is changed). */
export function rewriteSealedCommand(input: object, command: string): boolean {
	const slot = slots.get(input);
	if (slot === undefined) return false;
	slot(command);
	return true;
}

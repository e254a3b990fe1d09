/**
 * Text a human reads in a dialog, made unable to drive the terminal. A command, a path, a rule's pattern or a
 * file's content comes from the model or the repository; an escape sequence, a carriage return or a bidi
 * override in it could redraw the dialog or reorder what it says. Control characters are shown as their pictures
 * (␛ for ESC), C1 controls and bidi controls as �; line breaks stay (a multi-line command is shown as written),
 * tabs become spaces.
 */
export function visibleText(text: string): string {
	return (
		text
			.replace(/\t/g, "    ")
			// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to replace
			.replace(/[\u0000-\u0009\u000b-\u001f]/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0)))
			.replace(/\u007f/g, "␡")
			.replace(/[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "�")
	);
}

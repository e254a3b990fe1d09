/**
 * Each mode's meaning is shown after its name (`plan mode — …` in /permissions, Alt+M and the status report),
 * so it must not say the name again.
 */
import { describe, expect, it } from "vitest";
import { PERMISSION_MODE_MEANINGS, PERMISSION_MODES } from "../../src/vocabulary/permission-mode.ts";

describe("permission mode meanings", () => {
	it("every mode has one, and none repeats the name it follows", () => {
		for (const mode of PERMISSION_MODES) {
			const meaning = PERMISSION_MODE_MEANINGS[mode];
			expect(meaning.length).toBeGreaterThan(10);
			expect(meaning.toLowerCase().startsWith(mode), `${mode}: ${meaning}`).toBe(false);
			expect(`${mode} mode — ${meaning}`).not.toMatch(new RegExp(`${mode} mode — ${mode} mode`));
		}
	});
});

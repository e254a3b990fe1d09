/** The terminal notification, written to a real stream the way pi's TUI stdout receives it. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AskEvent, AskOpenedEvent } from "../../src/authority/ask-events.ts";
import { announceToTerminal, notificationSequence } from "../../src/authority/ask-notification.ts";
import type { NotifyStyle } from "../../src/policy/config-schema.ts";

function opened(overrides: Partial<AskOpenedEvent> = {}): AskOpenedEvent {
	return {
		version: 1,
		askId: "a1",
		time: "2026-12-01T10:00:00.000Z",
		sessionId: "s1",
		kind: "own",
		origin: { kind: "human" },
		tool: "bash",
		tier: "destructive",
		actionHash: "h",
		preview: "rm -rf secret-token-123",
		cwd: "/work",
		phase: "opened",
		why: "the destructive tier asks",
		position: { index: 1, total: 1 },
		deadline: "2026-12-01T10:05:00.000Z",
		...overrides,
	};
}

/** A real stream standing in for a terminal: what `announceToTerminal` wrote, as text. */
function terminal(isTTY = true): { stream: PassThrough & { isTTY: boolean }; written: () => string } {
	const stream = Object.assign(new PassThrough(), { isTTY });
	const chunks: Buffer[] = [];
	stream.on("data", (chunk: Buffer) => chunks.push(chunk));
	return { stream, written: () => Buffer.concat(chunks).toString("utf8") };
}

async function announce(
	event: AskEvent,
	style: NotifyStyle,
	options: { isTTY?: boolean; inTmux?: boolean } = {},
) {
	const out = terminal(options.isTTY ?? true);
	announceToTerminal(event, style, { stream: out.stream, inTmux: options.inTmux ?? false });
	await new Promise((resolve) => setImmediate(resolve));
	return out.written();
}

describe("the terminal notification for an opened dialog", () => {
	it("bell writes the BEL byte and nothing else", async () => {
		expect(await announce(opened(), "bell")).toBe("\x07");
	});

	it("osc9 and osc777 name the tool, tier and asking subagent, never the command", async () => {
		const subagent = opened({
			origin: { kind: "subagent", name: "worker", depth: 1, path: ["root", "worker"] },
		});
		expect(await announce(subagent, "osc9")).toBe(
			"\x1b]9;Permission needed: bash (destructive) for subagent root ← worker\x07",
		);
		expect(await announce(opened(), "osc777")).toBe(
			"\x1b]777;notify;pi;Permission needed: bash (destructive)\x07",
		);
		expect(await announce(subagent, "osc777")).not.toContain("secret-token");
	});

	it("inside tmux an OSC notification goes through its passthrough, with every ESC doubled", async () => {
		expect(await announce(opened(), "osc9", { inTmux: true })).toBe(
			"\x1bPtmux;\x1b\x1b]9;Permission needed: bash (destructive)\x07\x1b\\",
		);
		expect(await announce(opened(), "bell", { inTmux: true })).toBe("\x07");
	});

	it("a tool or agent name cannot smuggle control characters or an OSC 777 field into the sequence", () => {
		const sequence = notificationSequence("osc777", "Permission needed: evil\x07\x1b]0;owned\x1b\\;x", false);
		expect(sequence).toBe("\x1b]777;notify;pi;Permission needed: evil  ]0,owned \\,x\x07");
	});

	it("writes nothing for off, for a dialog after the first of a burst, for a close, or to a non-terminal", async () => {
		expect(await announce(opened(), "off")).toBe("");
		expect(await announce(opened({ position: { index: 2, total: 3 } }), "bell")).toBe("");
		const { why: _why, position: _position, deadline: _deadline, ...base } = opened();
		expect(await announce({ ...base, phase: "closed", outcome: "allow", durationMs: 5 }, "bell")).toBe("");
		expect(await announce(opened(), "bell", { isTTY: false })).toBe("");
	});

	it("a terminal that throws on write does not reach the dialog", () => {
		const broken = {
			isTTY: true,
			write: () => {
				throw new Error("EIO");
			},
		};
		expect(() => announceToTerminal(opened(), "bell", { stream: broken, inTmux: false })).not.toThrow();
	});
});

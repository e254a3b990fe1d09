/**
 * The demo's fixed script: what the scripted model says and which tools it calls, turn by turn, for the root
 * session and for the `cleaner` subagent. Stateless on purpose, like the test harness's faux model: the turn is
 * the number of assistant messages already in the conversation, so the root and the child pi process (which
 * loads this same model) each find their place from the messages alone.
 */

export const DEMO_PROVIDER = "pph-demo";
export const DEMO_MODEL_ID = "scripted";
export const DEMO_MODEL = `${DEMO_PROVIDER}/${DEMO_MODEL_ID}`;

export const SUBAGENT_NAME = "cleaner";
/** Starts the task the root hands to the subagent; the child's first user message carries it. */
const CHILD_MARKER = "[demo-subagent]";

export const FILES = {
	readme: "README-demo.md",
	notes: "notes.txt",
	oldLog: "old-build.log",
	importantDir: "important",
	importantFile: "important/keep-me.txt",
} as const;

export const COMMANDS = {
	childRemove: `rm -f ${FILES.oldLog}`,
	rootRemove: `rm -rf ${FILES.importantDir}/`,
} as const;

export const NOTES_CONTENT =
	"Notes from the pi-permission-hub demo: this file exists because you allowed it.\n";

/** The prompt the demo submits for the user, in TUI and in --auto. */
export const DEMO_PROMPT = "Run the pi-permission-hub demo.";

interface ScriptedCall {
	readonly tool: string;
	/** Every argument the demo's tools get is a string. */
	readonly input: Readonly<Record<string, string>>;
}

type ScriptedReply = { readonly text: string; readonly calls: readonly ScriptedCall[] };

/** A message of the conversation the model sees; only these fields matter to the script. */
interface SeenMessage {
	readonly role: string;
	readonly content: unknown;
	readonly toolName?: string;
	readonly isError?: boolean;
}

const ROOT_STEPS: readonly ScriptedReply[] = [
	{
		text: `Step 1 of 4: I read ${FILES.readme}. Reading a file in the project is the read tier, so it runs without asking.`,
		calls: [{ tool: "read", input: { path: FILES.readme } }],
	},
	{
		text: `Step 2 of 4: I write ${FILES.notes}. Writing is the write tier, so the gate asks you first (y allows it once).`,
		calls: [{ tool: "write", input: { path: FILES.notes, content: NOTES_CONTENT } }],
	},
	{
		text:
			`Step 3 of 4: I hand a clean-up to the "${SUBAGENT_NAME}" subagent, a separate pi process. ` +
			"Launching a subagent asks first (y). Its own destructive command then asks too: the subagent has no " +
			"screen, so its ask is forwarded to your dialog here, naming who asks (y).",
		calls: [
			{
				tool: "subagent",
				input: {
					agent: SUBAGENT_NAME,
					task: `${CHILD_MARKER} Remove the stale build log ${FILES.oldLog}.`,
				},
			},
		],
	},
	{
		text: `Step 4 of 4: I delete the ${FILES.importantDir}/ folder. Destructive again: deny this one (n).`,
		calls: [{ tool: "bash", input: { command: COMMANDS.rootRemove } }],
	},
];

const CHILD_STEPS: readonly ScriptedReply[] = [
	{
		text: `Removing ${FILES.oldLog}.`,
		calls: [{ tool: "bash", input: { command: COMMANDS.childRemove } }],
	},
];

const textBlock = (block: unknown): string =>
	typeof block === "object" && block !== null && "type" in block && block.type === "text" && "text" in block
		? String(block.text)
		: "";

export function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	return Array.isArray(content) ? content.map(textBlock).join("") : "";
}

/** One line per tool result so far: what ran, and whether the gate (or the tool) refused it. */
function outcomes(messages: readonly SeenMessage[]): string[] {
	return messages
		.filter((m) => m.role === "toolResult")
		.map((m) => {
			const first = textOf(m.content).split("\n")[0] ?? "";
			return `- ${m.toolName ?? "tool"}: ${m.isError ? "blocked or failed" : "ran"}${first ? ` (${first.slice(0, 140)})` : ""}`;
		});
}

function finalText(isChild: boolean, messages: readonly SeenMessage[]): string {
	if (isChild) return `Clean-up finished.\n${outcomes(messages).join("\n")}`;
	return [
		"The demo script is done. What happened:",
		...outcomes(messages),
		"",
		"pi exits in a moment; the demo then shows the audit log and the `pi-permission-hub` CLI.",
	].join("\n");
}

/** The model's next reply for this conversation; after the last step, a final summary text. */
export function demoReply(messages: readonly SeenMessage[]): ScriptedReply {
	const firstUser = messages.find((m) => m.role === "user");
	const isChild = textOf(firstUser?.content).includes(CHILD_MARKER);
	const steps = isChild ? CHILD_STEPS : ROOT_STEPS;
	const turn = messages.filter((m) => m.role === "assistant").length;
	return steps[turn] ?? { text: finalText(isChild, messages), calls: [] };
}

/** A dialog the script leads to, in order, and how the demo tells the human (or --auto) to answer it. */
export interface ExpectedDialog {
	readonly tool: string;
	readonly tier: string;
	/** The start of the action's preview, as the dialog's `<tool>: <preview>` line shows it. */
	readonly preview: string;
	readonly requestedBy: string | null;
	readonly answer: { readonly key: "y" | "n"; readonly label: "Allow once" | "Deny" };
	/** The step, as the banner lists it. */
	readonly step: string;
}

const ALLOW = { key: "y", label: "Allow once" } as const;
const DENY = { key: "n", label: "Deny" } as const;

export const EXPECTED_DIALOGS: readonly ExpectedDialog[] = [
	{
		tool: "write",
		tier: "write",
		preview: FILES.notes,
		requestedBy: null,
		answer: ALLOW,
		step: `write ${FILES.notes}`,
	},
	{
		tool: "subagent",
		tier: "spend",
		preview: `${SUBAGENT_NAME}, task: ${CHILD_MARKER} Remove`,
		requestedBy: null,
		answer: ALLOW,
		step: `launch the "${SUBAGENT_NAME}" subagent`,
	},
	{
		tool: "bash",
		tier: "destructive",
		preview: COMMANDS.childRemove,
		requestedBy: `subagent root ← ${SUBAGENT_NAME}`,
		answer: ALLOW,
		step: `the subagent runs ${COMMANDS.childRemove}`,
	},
	{
		tool: "bash",
		tier: "destructive",
		preview: COMMANDS.rootRemove,
		requestedBy: null,
		answer: DENY,
		step: COMMANDS.rootRemove,
	},
];

/** The dialog's first line, `Permission needed: <tool> (<tier>)` (the tier only when it is not the tool's name). */
export function dialogHeading(dialog: ExpectedDialog): string {
	return dialog.tool === dialog.tier
		? `Permission needed: ${dialog.tool}`
		: `Permission needed: ${dialog.tool} (${dialog.tier})`;
}

/**
 * Whether a dialog's text (the heading, then the body lines, as RPC's select title carries them and as the TUI
 * shows them) is `expected`: same heading, same action, and the same requester (or none).
 */
export function dialogMatches(text: string, expected: ExpectedDialog): boolean {
	const lines = text.split("\n").map((line) => line.trim());
	const requestedBy = lines.find((line) => line.startsWith("Requested by: ")) ?? null;
	return (
		lines[0] === dialogHeading(expected) &&
		lines.some((line) => line.startsWith(`${expected.tool}: ${expected.preview}`)) &&
		requestedBy === (expected.requestedBy === null ? null : `Requested by: ${expected.requestedBy}`)
	);
}

/**
 * A pi extension that registers the scripted model `faux/faux-1` (pi-ai's in-process faux provider).
 * Its replies come from the JSON script named by `PPH_FAUX_SCRIPT`, re-read on every model request so a test can
 * rewrite it between prompts. Load it with `-e` (the harness always passes it first) or via settings `extensions`.
 * With `PPH_FAUX_SYSTEM_PROMPTS` set, the system messages of every request are appended to that file, a JSON
 * line per request: what the model was told.
 */
import { appendFileSync } from "node:fs";
import {
	type AssistantMessage,
	type FauxResponseFactory,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxToolCall,
} from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { FAUX_SCRIPT_ENV } from "./faux-script.ts";
import { replyFromScriptFile } from "./faux-turns.ts";

/** Each model request consumes one queued step; keep the queue topped up so it never runs dry. */
const QUEUE_LOW_WATER = 16;
const QUEUE_REFILL = 64;

export default function fauxModelExtension(pi: ExtensionAPI): void {
	const faux = fauxProvider({
		provider: "faux",
		models: [{ id: "faux-1", name: "Faux 1", contextWindow: 32_000, maxTokens: 4_096 }],
	});

	const step: FauxResponseFactory = (context): AssistantMessage => {
		if (faux.getPendingResponseCount() < QUEUE_LOW_WATER) faux.appendResponses(steps(QUEUE_REFILL));
		const promptLog = process.env.PPH_FAUX_SYSTEM_PROMPTS;
		if (promptLog) {
			const told = context.messages.filter((message) => message.role === "system");
			appendFileSync(promptLog, `${JSON.stringify(told)}\n`);
		}
		const reply = replyFromScriptFile(process.env[FAUX_SCRIPT_ENV], context.messages);
		if (reply.kind === "text") return fauxAssistantMessage(fauxText(reply.text));
		return fauxAssistantMessage(
			reply.calls.map((call) =>
				fauxToolCall(call.tool, call.input, call.id === undefined ? {} : { id: call.id }),
			),
			{ stopReason: "toolUse" },
		);
	};
	const steps = (count: number): FauxResponseFactory[] => Array.from({ length: count }, () => step);

	faux.setResponses(steps(QUEUE_REFILL));
	pi.registerProvider(faux.provider);
}

/**
 * A pi extension that registers the demo's scripted model (`pph-demo/scripted`, pi-ai's in-process faux
 * provider): no network, no API key. The demo's settings load it in the root and, through the same settings, in
 * the subagent's pi process. In the terminal UI it also leaves pi a few seconds after the script's last answer,
 * so the demo can go on to its summary.
 */
import {
	type AssistantMessage,
	type FauxResponseFactory,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxToolCall,
} from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { DEMO_MODEL_ID, DEMO_PROVIDER, demoReply } from "./scenario.ts";

/** How long the TUI stays open after the last answer; the demo runner sets it, the default suits a human. */
export const EXIT_DELAY_ENV = "PPH_DEMO_EXIT_DELAY_MS";
const DEFAULT_EXIT_DELAY_MS = 6_000;

/** Each model request consumes one queued step; keep the queue topped up so it never runs dry. */
const QUEUE_LOW_WATER = 8;
const QUEUE_REFILL = 32;

function exitDelayMs(): number {
	const value = Number(process.env[EXIT_DELAY_ENV]);
	return Number.isFinite(value) && value >= 0 ? value : DEFAULT_EXIT_DELAY_MS;
}

export default function demoModelExtension(pi: ExtensionAPI): void {
	const faux = fauxProvider({
		provider: DEMO_PROVIDER,
		models: [{ id: DEMO_MODEL_ID, name: "Demo (scripted)", contextWindow: 32_000, maxTokens: 4_096 }],
	});
	let scriptDone = false;

	const step: FauxResponseFactory = (context): AssistantMessage => {
		if (faux.getPendingResponseCount() < QUEUE_LOW_WATER) faux.appendResponses(steps(QUEUE_REFILL));
		const reply = demoReply(context.messages);
		if (reply.calls.length === 0) {
			scriptDone = true;
			return fauxAssistantMessage(fauxText(reply.text));
		}
		return fauxAssistantMessage(
			[fauxText(reply.text), ...reply.calls.map((call) => fauxToolCall(call.tool, { ...call.input }))],
			{ stopReason: "toolUse" },
		);
	};
	const steps = (count: number): FauxResponseFactory[] => Array.from({ length: count }, () => step);

	faux.setResponses(steps(QUEUE_REFILL));
	pi.registerProvider(faux.provider);

	pi.on("agent_settled", (_event, ctx) => {
		if (ctx.mode !== "tui" || !scriptDone) return;
		const delay = exitDelayMs();
		ctx.ui.notify(
			`Demo finished: leaving pi in ${Math.round(delay / 1000)} s to show the audit log.`,
			"info",
		);
		setTimeout(() => ctx.shutdown(), delay);
	});
}

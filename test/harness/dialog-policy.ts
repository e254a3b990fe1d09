/**
 * The automated "human" of an RPC session: how each extension dialog (select / confirm / input / editor) is answered.
 * A policy returns one answer per dialog; the session turns it into an `extension_ui_response`.
 */
import { z } from "zod";

const timeout = z.number().optional();

export const dialogRequestSchema = z.discriminatedUnion("method", [
	z.looseObject({
		type: z.literal("extension_ui_request"),
		id: z.string(),
		method: z.literal("select"),
		title: z.string(),
		options: z.array(z.string()),
		timeout,
	}),
	z.looseObject({
		type: z.literal("extension_ui_request"),
		id: z.string(),
		method: z.literal("confirm"),
		title: z.string(),
		message: z.string(),
		timeout,
	}),
	z.looseObject({
		type: z.literal("extension_ui_request"),
		id: z.string(),
		method: z.literal("input"),
		title: z.string(),
		placeholder: z.string().optional(),
		timeout,
	}),
	z.looseObject({
		type: z.literal("extension_ui_request"),
		id: z.string(),
		method: z.literal("editor"),
		title: z.string(),
		prefill: z.string().optional(),
	}),
]);

export type DialogRequest = z.infer<typeof dialogRequestSchema>;
export type DialogMethod = DialogRequest["method"];
export const DIALOG_METHODS: readonly DialogMethod[] = ["select", "confirm", "input", "editor"];

/**
 * `confirm` answers a confirm; `select` must name one of the offered options; `input` answers input and editor;
 * `cancel` dismisses any dialog; `never` leaves it unanswered (pi waits, or resolves it itself on its timeout).
 */
export type DialogAnswer =
	| { readonly confirm: boolean }
	| { readonly select: string }
	| { readonly input: string }
	| { readonly cancel: true }
	| { readonly never: true };

export type DialogPolicy = (request: DialogRequest) => DialogAnswer | Promise<DialogAnswer>;

export type UiResponse =
	| { readonly type: "extension_ui_response"; readonly id: string; readonly confirmed: boolean }
	| { readonly type: "extension_ui_response"; readonly id: string; readonly value: string }
	| { readonly type: "extension_ui_response"; readonly id: string; readonly cancelled: true };

/** The wire response for `answer`, `undefined` for `never`; throws when the answer does not fit the dialog. */
export function uiResponseFor(request: DialogRequest, answer: DialogAnswer): UiResponse | undefined {
	const id = request.id;
	if ("never" in answer) return undefined;
	if ("cancel" in answer) return { type: "extension_ui_response", id, cancelled: true };
	if ("confirm" in answer) {
		if (request.method !== "confirm") throw misfit(request, "confirm");
		return { type: "extension_ui_response", id, confirmed: answer.confirm };
	}
	if ("select" in answer) {
		if (request.method !== "select") throw misfit(request, "select");
		if (!request.options.includes(answer.select)) {
			throw new Error(
				`dialog policy picked ${JSON.stringify(answer.select)}, which is not among the options ` +
					`${JSON.stringify(request.options)} of select "${request.title}"`,
			);
		}
		return { type: "extension_ui_response", id, value: answer.select };
	}
	if (request.method !== "input" && request.method !== "editor") throw misfit(request, "input");
	return { type: "extension_ui_response", id, value: answer.input };
}

function misfit(request: DialogRequest, answerKind: string): Error {
	return new Error(`dialog policy gave a ${answerKind} answer to ${describeDialog(request)}`);
}

export function describeDialog(request: DialogRequest): string {
	const detail =
		request.method === "select"
			? ` options ${JSON.stringify(request.options)}`
			: request.method === "confirm"
				? ` message ${JSON.stringify(request.message)}`
				: "";
	return `${request.method} ${JSON.stringify(request.title)}${detail} (id ${request.id})`;
}

/** Approves everything: confirm → yes, select → first option, input/editor → empty text. */
export const allowAll: DialogPolicy = (request) => {
	switch (request.method) {
		case "confirm":
			return { confirm: true };
		case "select":
			return request.options[0] === undefined ? { cancel: true } : { select: request.options[0] };
		default:
			return { input: "" };
	}
};

/** Refuses everything: confirm → no, select → the option containing "Deny" (else the last), input/editor → cancel. */
export const denyAll: DialogPolicy = (request) => {
	switch (request.method) {
		case "confirm":
			return { confirm: false };
		case "select": {
			const option = request.options.find((o) => o.includes("Deny")) ?? request.options.at(-1);
			return option === undefined ? { cancel: true } : { select: option };
		}
		default:
			return { cancel: true };
	}
};

/** Leaves every dialog unanswered: the way to test timeouts and the watchdog. */
export const never: DialogPolicy = () => ({ never: true });

/**
 * Select dialogs: the first option containing `match` (or satisfying it). Input/editor dialogs: `inputText`
 * (cancel when not given). Confirm dialogs, or a select with no matching option, fail the session.
 */
export function pickOption(match: string | ((option: string) => boolean), inputText?: string): DialogPolicy {
	const matches = typeof match === "string" ? (option: string) => option.includes(match) : match;
	return (request) => {
		if (request.method === "select") {
			const option = request.options.find(matches);
			if (option === undefined) {
				throw new Error(`pickOption: no option of ${describeDialog(request)} matches ${String(match)}`);
			}
			return { select: option };
		}
		if (request.method === "confirm") throw new Error(`pickOption cannot answer ${describeDialog(request)}`);
		return inputText === undefined ? { cancel: true } : { input: inputText };
	};
}

/** One entry per dialog, in order; an entry may itself be a policy. Running out fails the session. */
export function scripted(answers: readonly (DialogAnswer | DialogPolicy)[]): DialogPolicy {
	let next = 0;
	return (request) => {
		const entry = answers[next];
		if (entry === undefined) {
			throw new Error(
				`scripted dialog policy has ${answers.length} answer(s) but dialog #${next + 1} arrived: ` +
					describeDialog(request),
			);
		}
		next++;
		return typeof entry === "function" ? entry(request) : entry;
	};
}

/**
 * Playing the human at `/permissions` over RPC: the command lists the report's parts first and a part's lines
 * when one is chosen. A walk visits every part in turn and collects the whole report as the lines it showed
 * (each part under its `── title ──` header), or stops at the first line `pick` wants and chooses it.
 */
import type { DialogAnswer, DialogPolicy, DialogRequest } from "./dialog-policy.ts";

const TITLE = "pi-permission-hub: permissions";
const ADD_RULE = "Add a rule…";
const BACK = "← back";

export class PermissionsWalk {
	/** Every line shown so far, each part's under its header. */
	readonly lines: string[] = [];
	private readonly visited = new Set<string>();
	private readonly pick: ((line: string) => boolean) | undefined;

	constructor(pick?: (line: string) => boolean) {
		this.pick = pick;
	}

	/** Whether `request` is one of `/permissions`' own lists. */
	static shows(request: DialogRequest): boolean {
		return (
			request.method === "select" && (request.title === TITLE || request.title.startsWith(`${TITLE} › `))
		);
	}

	/** The answer to one of `/permissions`' lists (see `shows`). */
	answer(request: DialogRequest): DialogAnswer {
		if (request.method !== "select") throw new Error(`not a /permissions list: ${request.method}`);
		if (request.title === TITLE) {
			const next = request.options.find((option) => option !== ADD_RULE && !this.visited.has(option));
			if (next === undefined) return { cancel: true };
			this.visited.add(next);
			return { select: next };
		}
		const lines = request.options.filter((option) => option !== BACK);
		this.lines.push(`── ${request.title.slice(TITLE.length + 3)} ──`, ...lines);
		const wanted = this.pick === undefined ? undefined : lines.find(this.pick);
		return wanted === undefined ? { select: BACK } : { select: wanted };
	}
}

/** `/permissions`' lists answered by `walk`, every other dialog by `otherwise`. */
export function walking(walk: PermissionsWalk, otherwise: DialogPolicy): DialogPolicy {
	return (request) => (PermissionsWalk.shows(request) ? walk.answer(request) : otherwise(request));
}

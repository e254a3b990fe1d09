/**
 * pi's `read`, `write` and `edit` tools as the gate runs them (adr/0014, adr/0017): pi's own definitions —
 * rendering, diffs, messages — with file operations that open only the file the gate classified. The tools run in
 * pi's process, where no sandbox reaches, and pi's own operations follow links: a command of the same turn that
 * swaps `big.txt` for a link to `~/.bashrc` after the gate allowed `edit big.txt` would have the edit land in
 * `~/.bashrc`. Here each allowed call leaves a plan (the real path of each path it may open, as classified), the
 * tool opens that real path component by component without following links (`no-follow-open.ts`), and anything
 * else fails the call. As for bash, each call finds its session's plans in a process-wide table.
 */
import type {
	EditOperations,
	ExtensionAPI,
	ReadOperations,
	WriteOperations,
} from "@earendil-works/pi-coding-agent";
import type { ClassifiedAction } from "../classify/action.ts";
import { processWide } from "../process-wide.ts";
import { humanDecided } from "../provenance/decision-source.ts";
import { ContainmentError, type OpenedFile, openApprovedFile } from "../sandbox/no-follow-open.ts";
import type { GateOutcome } from "./gate-outcome.ts";

type Pi = typeof import("@earendil-works/pi-coding-agent");

/** pi's file tools and image sniffing, as pi hands them to the extension's entry (the copy pi runs, adr/0012). */
export interface FileToolKit {
	readonly createReadToolDefinition: Pi["createReadToolDefinition"];
	readonly createWriteToolDefinition: Pi["createWriteToolDefinition"];
	readonly createEditToolDefinition: Pi["createEditToolDefinition"];
	readonly detectSupportedImageMimeTypeFromFile: Pi["detectSupportedImageMimeTypeFromFile"];
	/** For the user's `images.autoResize`, which pi's own read tool follows. */
	readonly SettingsManager: Pi["SettingsManager"];
}

export const CONTAINED_FILE_TOOLS = ["read", "write", "edit"] as const;
export type ContainedFileTool = (typeof CONTAINED_FILE_TOOLS)[number];

export function isContainedFileTool(tool: string): tool is ContainedFileTool {
	return (CONTAINED_FILE_TOOLS as readonly string[]).includes(tool);
}

/** A file one allowed call may open. */
export interface PlannedFile {
	/** The real path the gate classified. */
	readonly realPath: string;
	/**
	 * It may have other names (hard links): a human approved this very call while the gate showed a guard on the
	 * path (adr/0014 makes a file with hard links one). A second name that appears later is never written.
	 */
	readonly otherNamesApproved: boolean;
}

/** What one allowed call may open: each path as pi makes it absolute, to the file the gate classified. */
export interface FilePlan {
	readonly tool: ContainedFileTool;
	readonly files: ReadonlyMap<string, PlannedFile>;
}

/** The plan of an allowed file-tool call, from the action the gate classified; null when it names no path. */
export function filePlanOf(tool: ContainedFileTool, outcome: GateOutcome): FilePlan | null {
	const touches = outcome.action?.parts.flatMap((part) => part.paths) ?? [];
	if (touches.length === 0) return null;
	// A path pi resolves `..` in before opening is classified twice; the later touch is the one pi opens.
	const human = humanDecided(outcome.source);
	const files = new Map<string, PlannedFile>();
	for (const touch of touches) {
		files.set(touch.absolute, {
			realPath: touch.resolved,
			otherNamesApproved: human && touch.guard !== undefined,
		});
	}
	return { tool, files };
}

/** The real path the audit line names for an allowed file-tool call: the file it opens (or none at all). */
export function plannedFile(action: ClassifiedAction | null, plan: FilePlan | null): string | undefined {
	const first = action?.parts[0]?.paths[0];
	return first === undefined ? undefined : plan?.files.get(first.absolute)?.realPath;
}

/** One session's plans, kept from the gate's decision to pi's run of the call. */
export class FilePlans {
	private readonly plans = new Map<string, FilePlan>();

	set(toolCallId: string, plan: FilePlan | null): void {
		if (plan === null) this.plans.delete(toolCallId);
		else this.plans.set(toolCallId, plan);
	}

	/** Whether a plan waits for this id: a second call with it must not take the first one's (adr/0017). */
	pending(toolCallId: string): boolean {
		return this.plans.has(toolCallId);
	}

	/** The plan of a call pi runs now, used once. */
	take(toolCallId: string, tool: ContainedFileTool): FilePlan | undefined {
		const plan = this.plans.get(toolCallId);
		this.plans.delete(toolCallId);
		return plan?.tool === tool ? plan : undefined;
	}

	/** The turn has ended: plans whose call never ran are dropped (ids may repeat in the next message). */
	clear(): void {
		this.plans.clear();
	}

	/** A call has ended; a plan still here was never used (pi ran it with another tool, or not at all). */
	finished(toolCallId: string): void {
		this.plans.delete(toolCallId);
	}
}

function sessionPlans(): Map<string, FilePlans> {
	return processWide<Map<string, FilePlans>>("file-plans.v1", () => new Map());
}

/** Make `plans` the plans of `sessionId`'s file-tool calls; the returned function withdraws them. */
export function publishFilePlans(sessionId: string, plans: FilePlans): () => void {
	sessionPlans().set(sessionId, plans);
	return () => {
		if (sessionPlans().get(sessionId) === plans) sessionPlans().delete(sessionId);
	};
}

/** The parameter schemas of the file tools copies of this extension registered (tells ours from others). */
function ourSchemas(): WeakSet<object> {
	return processWide<WeakSet<object>>("file-tool-schemas.v1", () => new WeakSet());
}

/**
 * Why the `tool` pi runs is not ours, so links could redirect it: null while ours runs it (or there is none).
 */
export function foreignFileTool(tools: ReturnType<ExtensionAPI["getAllTools"]>, tool: string): string | null {
	if (!isContainedFileTool(tool)) return null;
	const found = tools.find((candidate) => candidate.name === tool);
	if (found === undefined || ourSchemas().has(found.parameters)) return null;
	const source = found.sourceInfo.path;
	const runner = source.startsWith("<builtin")
		? `pi's own ${tool} tool`
		: `another extension's ${tool} tool (${source})`;
	return `${runner} runs it, not the gate's, so a link made after this check could redirect it`;
}

/** Register pi's read, write and edit tools, each call opening only the files its plan names. */
export function registerContainedFileTools(pi: ExtensionAPI, kit: FileToolKit, agentDir: string): void {
	// Read once per working directory, as pi reads its settings for its own read tool (adr/0028); a project's
	// settings count only while pi trusts the project, as for pi's own.
	const autoResize = new Map<string, boolean>();
	const autoResizeImagesFor = (cwd: string, projectTrusted: boolean): boolean => {
		const key = `${projectTrusted ? "trusted" : "untrusted"}:${cwd}`;
		let value = autoResize.get(key);
		if (value === undefined) {
			value = kit.SettingsManager.create(cwd, agentDir, { projectTrusted }).getImageAutoResize();
			autoResize.set(key, value);
		}
		return value;
	};
	const fail = (why: string): Promise<never> => Promise.reject(new Error(`pi-permission-hub: ${why}`));
	const planFor = (toolCallId: string, tool: ContainedFileTool, sessionId: string): FilePlan | string => {
		const plans = sessionPlans().get(sessionId);
		if (plans === undefined)
			return "no permission gate runs this session, so no file is opened (fail closed)";
		return (
			plans.take(toolCallId, tool) ??
			`the gate did not see this ${tool} call allowed, so no file is opened (fail closed)`
		);
	};

	const read = kit.createReadToolDefinition(process.cwd());
	const readParameters = { ...read.parameters };
	ourSchemas().add(readParameters);
	pi.registerTool({
		...read,
		parameters: readParameters,
		execute: (toolCallId, params, signal, onUpdate, ctx) => {
			const plan = planFor(toolCallId, "read", ctx.sessionManager.getSessionId());
			if (typeof plan === "string") return fail(plan);
			const operations = containedReadOperations(plan, kit);
			const autoResizeImages = autoResizeImagesFor(ctx.cwd, ctx.isProjectTrusted());
			return kit
				.createReadToolDefinition(ctx.cwd, { operations, autoResizeImages })
				.execute(toolCallId, params, signal, onUpdate, ctx);
		},
	});

	const write = kit.createWriteToolDefinition(process.cwd());
	const writeParameters = { ...write.parameters };
	ourSchemas().add(writeParameters);
	pi.registerTool({
		...write,
		parameters: writeParameters,
		execute: (toolCallId, params, signal, onUpdate, ctx) => {
			const plan = planFor(toolCallId, "write", ctx.sessionManager.getSessionId());
			if (typeof plan === "string") return fail(plan);
			const operations = containedWriteOperations(plan);
			return kit
				.createWriteToolDefinition(ctx.cwd, { operations })
				.execute(toolCallId, params, signal, onUpdate, ctx);
		},
	});

	const edit = kit.createEditToolDefinition(process.cwd());
	const editParameters = { ...edit.parameters };
	ourSchemas().add(editParameters);
	pi.registerTool({
		...edit,
		parameters: editParameters,
		execute: (toolCallId, params, signal, onUpdate, ctx) => {
			const plan = planFor(toolCallId, "edit", ctx.sessionManager.getSessionId());
			if (typeof plan === "string") return fail(plan);
			const operations = containedEditOperations(plan);
			return kit
				.createEditToolDefinition(ctx.cwd, { operations })
				.execute(toolCallId, params, signal, onUpdate, ctx);
		},
	});
}

/** Open the file pi names by `absolutePath`, if the plan holds it, run `use` on it, and close it. */
async function withPlannedFile<T>(
	plan: FilePlan,
	absolutePath: string,
	access: "read" | "write",
	create: boolean,
	use: (file: OpenedFile) => Promise<T>,
): Promise<T> {
	const file = await openPlanned(plan, absolutePath, access, create);
	try {
		return await use(file);
	} finally {
		await file.handle.close();
	}
}

/** The planned real path of `absolutePath`, opened; a refusal says so and that nothing was opened. */
async function openPlanned(
	plan: FilePlan,
	absolutePath: string,
	access: "read" | "write",
	create: boolean,
): Promise<OpenedFile> {
	const planned = plan.files.get(absolutePath);
	try {
		if (planned === undefined) {
			throw new ContainmentError(`${absolutePath} is not the path the gate checked for this call`);
		}
		const { realPath, otherNamesApproved } = planned;
		return await openApprovedFile({ realPath, access, create, otherNamesApproved });
	} catch (error) {
		if (!(error instanceof ContainmentError)) throw error;
		const nothing = access === "read" ? "nothing was read" : "nothing was written";
		throw new Error(`pi-permission-hub: ${error.message}; ${nothing} (fail closed)`);
	}
}

async function replaceContent(file: OpenedFile, content: string): Promise<void> {
	await file.handle.truncate(0);
	await file.handle.writeFile(content, "utf-8");
}

/** The write tool's operations: the file (and missing directories above it) created inside the approved path only. */
export function containedWriteOperations(plan: FilePlan): WriteOperations {
	return {
		writeFile: (absolutePath, content) =>
			withPlannedFile(plan, absolutePath, "write", true, (file) => replaceContent(file, content)),
		// The directories are made while the file's path is walked, each one no-follow (see `writeFile`).
		mkdir: async () => undefined,
	};
}

/** The edit tool's operations: read and written through the approved path, each open walked again. */
export function containedEditOperations(plan: FilePlan): EditOperations {
	return {
		access: (absolutePath) => withPlannedFile(plan, absolutePath, "write", false, async () => undefined),
		readFile: (absolutePath) =>
			withPlannedFile(plan, absolutePath, "read", false, (file) => file.handle.readFile()),
		writeFile: (absolutePath, content) =>
			withPlannedFile(plan, absolutePath, "write", false, (file) => replaceContent(file, content)),
	};
}

/** The read tool's operations: only a file the gate classified for this call is read, never where a link leads now. */
export function containedReadOperations(
	plan: FilePlan,
	kit: Pick<FileToolKit, "detectSupportedImageMimeTypeFromFile">,
): ReadOperations {
	return {
		access: (absolutePath) => withPlannedFile(plan, absolutePath, "read", false, async () => undefined),
		readFile: (absolutePath) =>
			withPlannedFile(plan, absolutePath, "read", false, (file) => file.handle.readFile()),
		// pi's sniffing opens a path: the open file's descriptor path, which reopens this very file.
		detectImageMimeType: (absolutePath) =>
			withPlannedFile(plan, absolutePath, "read", false, (file) =>
				kit.detectSupportedImageMimeTypeFromFile(file.byDescriptor),
			),
		createReadStream: (absolutePath, options) => readChunks(plan, absolutePath, options.signal),
	};
}

/** The file's bytes up to its size when opened (to its end for one reporting 0), as pi's own stream reads. */
async function* readChunks(
	plan: FilePlan,
	absolutePath: string,
	signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
	const file = await openPlanned(plan, absolutePath, "read", false);
	try {
		let left = file.stats.size > 0 ? file.stats.size : Number.POSITIVE_INFINITY;
		let position = 0;
		while (left > 0 && signal?.aborted !== true) {
			const buffer = Buffer.alloc(Math.min(left, 64 * 1024));
			const { bytesRead } = await file.handle.read(buffer, 0, buffer.length, position);
			if (bytesRead === 0) break;
			position += bytesRead;
			left -= bytesRead;
			yield buffer.subarray(0, bytesRead);
		}
	} finally {
		await file.handle.close();
	}
}

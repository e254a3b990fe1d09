import writeFileAtomic from "write-file-atomic";
import { errorMessage } from "../vocabulary/error-message.ts";
import { inboxLayoutAt, requestFile } from "./inbox-layout.ts";
import { checkPrivateDir } from "./private-dir.ts";
import type { ForwardRequest } from "./protocol.ts";
import type { ParentTarget } from "./resolve-parent.ts";

/**
 * Put a request into the parent's inbox without waiting for an answer (a parked ask: the answer goes to the
 * parked store). Returns why it could not be delivered, or null.
 */
export async function deliverRequest(target: ParentTarget, request: ForwardRequest): Promise<string | null> {
	const layout = inboxLayoutAt(target.inbox);
	try {
		checkPrivateDir(layout.root);
		checkPrivateDir(layout.requests);
		await writeFileAtomic(requestFile(layout, request.id), JSON.stringify(request), { mode: 0o600 });
		return null;
	} catch (error) {
		return errorMessage(error);
	}
}

import { join } from "node:path";

/**
 * Where everything of the hub lives, under the agent dir so parent and children (which share
 * PI_CODING_AGENT_DIR) meet without configuration:
 *
 *   <agentDir>/pi-permission-hub/inbox/<session id>/requests/<id>.json    written by children
 *   <agentDir>/pi-permission-hub/inbox/<session id>/responses/<id>.json   created once by the parent
 *   <agentDir>/pi-permission-hub/inbox/<session id>/claims/<id>           first server instance to claim serves
 *   <agentDir>/pi-permission-hub/inbox/<session id>/children/<id>.json    a gated child announcing itself
 *   <agentDir>/pi-permission-hub/inbox/<session id>/server.json           who serves this inbox (pid)
 */
export interface InboxLayout {
	readonly root: string;
	readonly requests: string;
	readonly responses: string;
	readonly claims: string;
	readonly children: string;
	readonly server: string;
}

/** Session ids are pi's (UUIDv7 or `--session-id` values); anything else is encoded so it stays one segment. */
export function inboxLayout(agentDir: string, sessionId: string): InboxLayout {
	const root = join(hubRoot(agentDir), "inbox", encodeURIComponent(sessionId));
	return inboxLayoutAt(root);
}

export function inboxLayoutAt(root: string): InboxLayout {
	return {
		root,
		requests: join(root, "requests"),
		responses: join(root, "responses"),
		claims: join(root, "claims"),
		children: join(root, "children"),
		server: join(root, "server.json"),
	};
}

export function hubRoot(agentDir: string): string {
	return join(agentDir, "pi-permission-hub");
}

export function requestFile(layout: InboxLayout, id: string): string {
	return join(layout.requests, `${id}.json`);
}

export function responseFile(layout: InboxLayout, id: string): string {
	return join(layout.responses, `${id}.json`);
}

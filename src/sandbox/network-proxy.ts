/**
 * The allowlist proxy of the `network` profile (adr/0017, `sandbox.network.allow`): an HTTP proxy in pi's own
 * process, on a Unix socket in a private directory, that the sandbox reaches through a relay (bubblewrap.ts) and
 * that forwards only to the hosts every allow list names.
 *
 *   CONNECT host:port              a tunnel (HTTPS, and anything else a client tunnels)
 *   GET http://host:port/path      a plain HTTP request, forwarded
 *
 * A host is matched as the client named it, never resolved first: a name that resolves to an address in the list
 * is not that address, and an IP literal passes only when it is listed. Whatever a sandboxed command sends, the
 * proxy answers or hangs up on that one connection, and never throws in pi's process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	request,
	type ServerResponse,
} from "node:http";
import { isIP, connect as tcpConnect } from "node:net";
import { dirname, join } from "node:path";
import type { Duplex } from "node:stream";

/** Where a request goes, as the client named it (canonical: lower case, IPv6 in brackets). */
interface Target {
	readonly host: string;
	readonly port: number;
}

/**
 * A new directory for the socket, 0700 (mkdtemp): no other user can reach the socket in it. Under /dev/shm,
 * else /tmp — never TMPDIR, which can lie in a project, where a project-write command could put a link to any
 * other socket in the socket's place for the next command's relay to reach. Every sandbox has a /dev and a
 * /tmp of its own.
 */
function privateDirectory(): string {
	try {
		return mkdtempSync(join("/dev/shm", "pi-permission-hub-proxy-"));
	} catch {
		return mkdtempSync(join("/tmp", "pi-permission-hub-proxy-"));
	}
}

/** The longest path a Unix socket can have on Linux (`sun_path`, with its terminating NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * Whether `allow` (entries of `sandbox.network.allow`) lets a client reach `host` at `port`: `example.com` at any
 * port, `*.example.com` its subdomains only (not the apex, never an IP literal), `example.com:8080` and
 * `[::1]:8080` that port only. Case does not matter; an entry that is not one of these forms matches nothing.
 */
export function hostAllowed(allow: readonly string[], host: string, port: number): boolean {
	const asked = canonicalHost(host);
	if (asked === null || !validPort(port)) return false;
	return allow.some((text) => {
		const entry = parseEntry(text);
		if (entry === null || (entry.port !== null && entry.port !== port)) return false;
		if (!entry.subdomains) return asked === entry.host;
		return !isIpLiteral(asked) && asked.endsWith(`.${entry.host}`);
	});
}

/**
 * One proxy for the sandboxed commands of a session. A target must be allowed by every list (each config file
 * that sets `sandbox.network.allow` gives one); with no list at all it refuses to start rather than allow all.
 */
export class NetworkProxy {
	/** The socket to bind into the sandbox. */
	readonly socketPath: string;
	private readonly allowLists: readonly (readonly string[])[];
	private readonly server = createServer();
	/** Every socket in use, clients and targets alike, so `close` leaves no tunnel open. */
	private readonly sockets = new Set<Duplex>();

	private constructor(allowLists: readonly (readonly string[])[], directory: string) {
		this.allowLists = allowLists;
		this.socketPath = join(directory, "proxy.sock");
	}

	static async start(allowLists: readonly (readonly string[])[]): Promise<NetworkProxy> {
		if (allowLists.length === 0) throw new Error("a network proxy needs at least one allow list");
		const directory = privateDirectory();
		const proxy = new NetworkProxy(allowLists, directory);
		try {
			if (proxy.socketPath.length > MAX_SOCKET_PATH)
				throw new Error(`the proxy socket path is too long for a Unix socket: ${proxy.socketPath}`);
			await proxy.listen();
		} catch (error) {
			rmSync(directory, { recursive: true, force: true });
			throw error;
		}
		return proxy;
	}

	/** Stop listening, cut every open connection and tunnel, and remove the socket's directory. */
	async close(): Promise<void> {
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		for (const socket of this.sockets) socket.destroy();
		await closed;
		rmSync(dirname(this.socketPath), { recursive: true, force: true });
	}

	private listen(): Promise<void> {
		const server = this.server;
		server.on("connection", (socket) => this.track(socket));
		server.on("request", (req, res) => this.forward(req, res));
		server.on("connect", (req, client, head) => this.tunnel(req, client, head));
		// Bytes that are not HTTP (or too large a header): this connection gets a 400, the proxy goes on.
		server.on("clientError", (_error, socket) => {
			if (socket.writable) socket.end(reply(400, "this is an HTTP proxy; the request could not be read"));
			else socket.destroy();
		});
		return new Promise((resolve, reject) => {
			server.once("error", reject);
			server.listen(this.socketPath, () => {
				server.off("error", reject);
				// Once listening, a failed accept (too many open files) costs that one client, not pi's process.
				server.on("error", () => {});
				resolve();
			});
		});
	}

	private allows(target: Target): boolean {
		return this.allowLists.every((allow) => hostAllowed(allow, target.host, target.port));
	}

	/** `CONNECT host:port`: a byte tunnel to an allowed target. */
	private tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
		// After `connect` the server no longer watches this socket: its errors are ours to handle.
		client.on("error", () => client.destroy());
		const target = parseAuthority(req.url ?? "");
		if (target === null) {
			client.end(reply(400, "CONNECT needs host:port"));
			return;
		}
		if (!this.allows(target)) {
			client.end(reply(403, refusalText(target)));
			return;
		}
		const upstream = tcpConnect({ host: unbracketed(target.host), port: target.port });
		this.track(upstream);
		let open = false;
		upstream.on("error", (error) => {
			if (open) client.destroy();
			else client.end(reply(502, `${formatTarget(target)} could not be reached: ${error.message}`));
		});
		upstream.on("connect", () => {
			open = true;
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			if (head.length > 0) upstream.write(head);
			client.pipe(upstream);
			upstream.pipe(client);
		});
		// A side that is gone leaves nothing to relay: the other gets what is already written, then closes.
		client.on("close", () => (open ? finish(upstream) : upstream.destroy()));
		upstream.on("close", () => finish(client));
	}

	/** `GET http://host:port/path`: a plain HTTP request, forwarded to an allowed target. */
	private forward(req: IncomingMessage, res: ServerResponse): void {
		req.on("error", () => res.destroy());
		res.on("error", () => res.destroy());
		const target = parseAbsoluteUrl(req.url ?? "");
		if (target === null) {
			respond(res, 400, "a proxy request needs an absolute http:// URL (use CONNECT for anything else)");
			return;
		}
		if (!this.allows(target)) {
			respond(res, 403, refusalText(target));
			return;
		}
		const headers = endToEndHeaders(req.headers);
		headers.host = formatTarget(target);
		const upstream = request({
			host: unbracketed(target.host),
			port: target.port,
			method: req.method,
			path: target.path,
			headers,
			// One connection per request: nothing is pooled across sandboxed commands.
			agent: false,
		});
		upstream.on("socket", (socket) => this.track(socket));
		upstream.on("error", (error) => {
			if (res.headersSent || res.destroyed) res.destroy();
			else respond(res, 502, `${formatTarget(target)} could not be reached: ${error.message}`);
		});
		upstream.on("response", (answer) => {
			answer.on("error", () => res.destroy());
			res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.headers));
			answer.pipe(res);
		});
		// The client gave up (or the answer is complete): nothing more is needed from the target.
		res.on("close", () => upstream.destroy());
		req.pipe(upstream);
	}

	private track(socket: Duplex): void {
		this.sockets.add(socket);
		socket.on("close", () => this.sockets.delete(socket));
	}
}

/** Let a stream flush what it was given, then close it. */
function finish(stream: Duplex): void {
	if (!stream.destroyed) stream.end(() => stream.destroy());
}

/** The headers for the next hop: those about this connection only (RFC 9110 §7.6.1) are not passed on. */
function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
	const hopByHop = new Set([
		"connection",
		"keep-alive",
		"proxy-connection",
		"proxy-authenticate",
		"proxy-authorization",
		"te",
		"trailer",
		"transfer-encoding",
		"upgrade",
		...String(headers.connection ?? "")
			.split(",")
			.map((name) => name.trim().toLowerCase()),
	]);
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

function refusalText(target: Target): string {
	return `pi-permission-hub: ${formatTarget(target)} is not in sandbox.network.allow`;
}

/** A whole response, for a socket that is no longer the HTTP server's. */
function reply(status: 400 | 403 | 502, text: string): string {
	const body = `${text}\n`;
	const reason = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status];
	return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function respond(res: ServerResponse, status: number, text: string): void {
	res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
	res.end(`${text}\n`);
}

/** `host:port` of a CONNECT, or null when it is anything else. */
function parseAuthority(authority: string): Target | null {
	const parts = splitHostPort(authority);
	if (parts === null || parts.port === null) return null;
	const host = canonicalHost(parts.host);
	return host === null ? null : { host, port: parts.port };
}

/** The target of an absolute-URI request (`http://host[:port]/path`), or null for any other form. */
function parseAbsoluteUrl(text: string): (Target & { readonly path: string }) | null {
	if (!/^http:\/\//i.test(text)) return null;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return null;
	}
	if (url.username !== "" || url.password !== "") return null;
	return {
		host: url.hostname,
		port: url.port === "" ? 80 : Number(url.port),
		path: url.pathname + url.search,
	};
}

interface AllowEntry {
	readonly host: string;
	/** `*.host`: its subdomains, not the host itself. */
	readonly subdomains: boolean;
	/** null: any port. */
	readonly port: number | null;
}

function parseEntry(text: string): AllowEntry | null {
	const subdomains = text.startsWith("*.");
	const parts = splitHostPort(subdomains ? text.slice(2) : text);
	if (parts === null) return null;
	const host = canonicalHost(parts.host);
	if (host === null || (subdomains && isIpLiteral(host))) return null;
	return { host, subdomains, port: parts.port };
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; null for anything else (an IPv6 address needs its brackets). */
function splitHostPort(text: string): { host: string; port: number | null } | null {
	const match = /^(\[[^\]]*\]|[^:[\]]+)(?::([0-9]{1,5}))?$/.exec(text);
	if (match === null || match[1] === undefined) return null;
	const port = match[2] === undefined ? null : Number(match[2]);
	if (port !== null && !validPort(port)) return null;
	return { host: match[1], port };
}

/**
 * A host name or address as the URL parser writes it (lower case, punycode, IPv4 in dotted decimal, IPv6
 * compressed in brackets), the form the proxy also connects to — so what is matched is what is reached. Null
 * for anything that is not just a host: no user, path or port may ride along.
 */
function canonicalHost(host: string): string | null {
	const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
	if (bracketed === "" || /[\s/?#@\\]/.test(bracketed)) return null;
	try {
		const url = new URL(`http://${bracketed}/`);
		return url.port === "" && url.hostname !== "" ? url.hostname : null;
	} catch {
		return null;
	}
}

function isIpLiteral(host: string): boolean {
	return host.startsWith("[") || isIP(host) !== 0;
}

function validPort(port: number): boolean {
	return Number.isInteger(port) && port >= 1 && port <= 65535;
}

function unbracketed(host: string): string {
	return host.startsWith("[") ? host.slice(1, -1) : host;
}

function formatTarget(target: Target): string {
	return `${target.host}:${target.port}`;
}

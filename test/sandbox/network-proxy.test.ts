import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	type AllowlistNetwork,
	type BubblewrapProbe,
	findSocat,
	probeBubblewrap,
	sandboxedCommand,
} from "../../src/sandbox/bubblewrap.ts";
import { hostAllowed, NetworkProxy } from "../../src/sandbox/network-proxy.ts";
import { tempDir } from "../policy/fixtures.ts";
import { runShell } from "./shell-run.ts";

describe("hostAllowed: what an allow list lets through", () => {
	it("`*.domain` allows its subdomains at any depth, never the domain itself or a look-alike", () => {
		const allow = ["*.example.com"];
		expect(hostAllowed(allow, "api.example.com", 443)).toBe(true);
		expect(hostAllowed(allow, "a.b.example.com", 80)).toBe(true);
		expect(hostAllowed(allow, "example.com", 443)).toBe(false);
		expect(hostAllowed(allow, "badexample.com", 443)).toBe(false);
		expect(hostAllowed(allow, "example.com.evil.org", 443)).toBe(false);
	});

	it("a bare name allows every port of that host and nothing below it", () => {
		expect(hostAllowed(["example.com"], "example.com", 443)).toBe(true);
		expect(hostAllowed(["example.com"], "example.com", 8080)).toBe(true);
		expect(hostAllowed(["example.com"], "api.example.com", 443)).toBe(false);
	});

	it("a port in the entry allows that port only", () => {
		expect(hostAllowed(["example.com:8080"], "example.com", 8080)).toBe(true);
		expect(hostAllowed(["example.com:8080"], "example.com", 443)).toBe(false);
		expect(hostAllowed(["*.example.com:443"], "api.example.com", 443)).toBe(true);
		expect(hostAllowed(["*.example.com:443"], "api.example.com", 80)).toBe(false);
		expect(hostAllowed(["127.0.0.1:8080"], "127.0.0.1", 8080)).toBe(true);
		expect(hostAllowed(["127.0.0.1:8080"], "127.0.0.1", 8081)).toBe(false);
	});

	it("IPv6 literals are written in brackets and compared as addresses", () => {
		expect(hostAllowed(["[::1]:8080"], "[::1]", 8080)).toBe(true);
		expect(hostAllowed(["[::1]:8080"], "::1", 8080)).toBe(true);
		expect(hostAllowed(["[::1]:8080"], "[0:0:0:0:0:0:0:1]", 8080)).toBe(true);
		expect(hostAllowed(["[::1]:8080"], "[::1]", 8081)).toBe(false);
		expect(hostAllowed(["[::1]"], "[::1]", 22)).toBe(true);
		expect(hostAllowed(["[::1]"], "[::2]", 22)).toBe(false);
		// Without brackets the last group would read as a port: such an entry matches nothing.
		expect(hostAllowed(["::1"], "::1", 1)).toBe(false);
	});

	it("case does not matter, in the entry or in the request", () => {
		expect(hostAllowed(["Example.COM"], "eXample.com", 443)).toBe(true);
		expect(hostAllowed(["*.Example.com"], "API.EXAMPLE.COM", 443)).toBe(true);
		expect(hostAllowed(["[::ABCD]"], "[::abcd]", 443)).toBe(true);
	});

	it("nothing is resolved: an IP literal passes only when listed, a name only as a name", () => {
		expect(hostAllowed(["localhost"], "127.0.0.1", 80)).toBe(false);
		expect(hostAllowed(["127.0.0.1"], "localhost", 80)).toBe(false);
		expect(hostAllowed(["*.example.com"], "93.184.215.14", 443)).toBe(false);
		expect(hostAllowed(["*.0.0.1"], "127.0.0.1", 80)).toBe(false);
		expect(hostAllowed(["*.example.com"], "[::1]", 443)).toBe(false);
		// The same address written another way is the same address (it is what the proxy would connect to).
		expect(hostAllowed(["127.0.0.1"], "127.1", 80)).toBe(true);
	});

	it("malformed entries match nothing; a host with anything riding along is refused", () => {
		for (const entry of ["", "*", "*.", "example.com:0", "example.com:99999", "exa mple.com", "a/b", "[::1"])
			expect(hostAllowed([entry], "example.com", 443)).toBe(false);
		expect(hostAllowed(["example.com"], "evil.org@example.com", 443)).toBe(false);
		expect(hostAllowed(["example.com"], "example.com/evil", 443)).toBe(false);
		expect(hostAllowed(["example.com"], "example.com:443", 443)).toBe(false);
		expect(hostAllowed(["example.com"], "example.com", 0)).toBe(false);
		expect(hostAllowed(["example.com"], "example.com", 65536)).toBe(false);
		expect(hostAllowed([], "example.com", 443)).toBe(false);
	});
});

let probe: BubblewrapProbe & { usable: true };
let socat: string;
let serverA: Server;
let serverB: Server;
let portA = 0;
let portB = 0;
let proxy: NetworkProxy;

async function listen(body: string): Promise<[Server, number]> {
	const server = createServer((req, res) => {
		// `/slow` answers late: a client can hang up while the proxy is still waiting. `/big` is still being
		// written when a client that read its start hangs up.
		const delay = req.url === "/slow" ? 300 : 0;
		setTimeout(() => res.end(req.url === "/big" ? Buffer.alloc(8 << 20, 120) : body), delay);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	return [server, typeof address === "object" && address !== null ? address.port : 0];
}

beforeAll(async () => {
	const found = await probeBubblewrap();
	if (!found.usable) throw new Error(`these tests need bubblewrap (.ci/run installs it): ${found.why}`);
	probe = found;
	const foundSocat = findSocat();
	if (foundSocat === null) throw new Error("these tests need socat (.ci/run installs it)");
	socat = foundSocat;
	[serverA, portA] = await listen("hello from A\n");
	[serverB, portB] = await listen("hello from B\n");
	proxy = await NetworkProxy.start([[`127.0.0.1:${portA}`, "*.example.com"]]);
});

afterAll(async () => {
	await proxy.close();
	await new Promise((resolve) => serverA.close(resolve));
	await new Promise((resolve) => serverB.close(resolve));
});

function throughProxy(): AllowlistNetwork {
	return { via: "proxy", proxySocket: proxy.socketPath, socat };
}

/**
 * Run `script` in the network profile with `network`, asynchronously: the proxy and the servers live in this
 * very process. `started` gets the pid of bubblewrap (the outer shell execs it).
 */
async function run(
	script: string,
	network: AllowlistNetwork,
	env: NodeJS.ProcessEnv = process.env,
	started: (pid: number) => void = () => {},
) {
	const project = tempDir();
	const line = sandboxedCommand(
		script,
		"network",
		{ project, cwd: project, keepReadOnly: [] },
		probe,
		network,
	);
	return { ...(await runShell(line, env, started)), project };
}

describe("the network profile with an allow list", () => {
	it("a project-write command cannot swap the proxy's socket for another, even with TMPDIR in the project", async () => {
		const project = tempDir();
		const rogueSocket = join(tempDir(), "rogue.sock");
		// Any other socket a command could make the relay reach: an open proxy, docker.sock.
		const rogue = createServer((_req, res) => res.end("hello from the rogue socket\n"));
		await new Promise<void>((resolve) => rogue.listen(rogueSocket, resolve));
		const saved = process.env.TMPDIR;
		process.env.TMPDIR = project;
		const inProject = await NetworkProxy.start([[`127.0.0.1:${portA}`]]).finally(() => {
			if (saved === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = saved;
		});
		try {
			const swap = `rm -f '${inProject.socketPath}' && ln -s '${rogueSocket}' '${inProject.socketPath}'`;
			await runShell(
				sandboxedCommand(swap, "project-write", { project, cwd: project, keepReadOnly: [] }, probe),
			);
			const network: AllowlistNetwork = { via: "proxy", proxySocket: inProject.socketPath, socat };
			const result = await run(`curl -sS http://127.0.0.1:${portA}/`, network);
			expect(result.out).toBe("hello from A\n");
		} finally {
			await inProject.close();
			await new Promise((resolve) => rogue.close(resolve));
		}
	});

	it("reaches an allowed host through the proxy", async () => {
		const result = await run(`curl -sS http://127.0.0.1:${portA}/`, throughProxy());
		expect(result.err).toBe("");
		expect(result.out).toBe("hello from A\n");
	});

	it("gets a 403 naming the setting for a host not in the list", async () => {
		const result = await run(`curl -sS -w '%{http_code}' http://127.0.0.1:${portB}/`, throughProxy());
		expect(result.out).toContain(`127.0.0.1:${portB} is not in sandbox.network.allow`);
		expect(result.out).toMatch(/403$/);
		expect(result.out).not.toContain("hello from B");
	});

	it("tunnels with CONNECT (as HTTPS does) to an allowed host, and refuses a tunnel elsewhere", async () => {
		const allowed = await run(`curl -sS --proxytunnel http://127.0.0.1:${portA}/`, throughProxy());
		expect(allowed.out).toBe("hello from A\n");
		const refused = await run(`curl -sS --proxytunnel http://127.0.0.1:${portB}/`, throughProxy());
		expect(refused.code).not.toBe(0);
		expect(refused.err).toContain("403");
		expect(refused.out).not.toContain("hello from B");
	});

	it("has no route around the proxy: neither curl without it nor bash's /dev/tcp reaches an allowed host", async () => {
		const curl = await run(`curl -sS --noproxy '*' http://127.0.0.1:${portA}/`, throughProxy());
		expect(curl.code).not.toBe(0);
		expect(curl.out).not.toContain("hello from A");
		const devTcp = await run(`bash -c 'echo x >/dev/tcp/127.0.0.1/${portA}'`, throughProxy());
		expect(devTcp.code).not.toBe(0);
	});

	it("points every proxy variable at the relay and drops the exemptions the caller's environment had", async () => {
		const env = { ...process.env, NO_PROXY: "*", no_proxy: "127.0.0.1", HTTPS_PROXY: "http://elsewhere:1" };
		const result = await run(
			`env | grep -iE '^(all|https?|no)_proxy=' | sort; curl -sS -w '%{http_code}' http://127.0.0.1:${portB}/`,
			throughProxy(),
			env,
		);
		const relay = "http://127.0.0.1:3128";
		expect(result.out).toContain(
			[
				`ALL_PROXY=${relay}`,
				`HTTPS_PROXY=${relay}`,
				`HTTP_PROXY=${relay}`,
				`all_proxy=${relay}`,
				`http_proxy=${relay}`,
				`https_proxy=${relay}`,
			].join("\n"),
		);
		expect(result.out).not.toMatch(/no_proxy/i);
		expect(result.out).toMatch(/403$/);
	});

	it("the relay ends with the command, and with a sandbox that is killed", async () => {
		const relays: number[] = [];
		const finished = await run(`sleep 1`, throughProxy(), process.env, (pid) => {
			setTimeout(() => relays.push(...socatBelow(pid)), 500);
		});
		expect(finished.code).toBe(0);
		expect(relays.length).toBeGreaterThan(0);
		// Killed with the sandbox's init once bubblewrap has exited: a few milliseconds after the command.
		await waitFor(() => relays.filter(isSocat).length === 0);
		expect(relays.filter(isSocat)).toEqual([]);

		const killedRelays: number[] = [];
		const killed = await run(`sleep 30`, throughProxy(), process.env, (pid) => {
			setTimeout(() => {
				killedRelays.push(...socatBelow(pid));
				process.kill(pid, "SIGKILL");
			}, 500);
		});
		expect(killed.code).toBe(null);
		expect(killedRelays.length).toBeGreaterThan(0);
		await waitFor(() => killedRelays.filter(isSocat).length === 0);
		expect(killedRelays.filter(isSocat)).toEqual([]);
	});

	it("a relay that cannot start leaves the command unrun, not run without its proxy", async () => {
		const result = await run("touch ran", {
			via: "proxy",
			proxySocket: proxy.socketPath,
			socat: "/bin/false",
		});
		expect(result.code).toBe(1);
		expect(result.err).toContain("the relay to the network proxy did not start");
		expect(existsSync(join(result.project, "ran"))).toBe(false);
	});

	it("an allow list that cannot be enforced here (no socat) gives no network at all", async () => {
		const result = await run(
			`curl -sS http://127.0.0.1:${portA}/; exec 3<>/dev/tcp/127.0.0.1/${portA} && echo reached`,
			{ via: "none" },
		);
		expect(result.code).not.toBe(0);
		expect(result.out).toBe("");
	});
});

describe("the proxy under hostile clients", () => {
	it("answers garbage, a CONNECT elsewhere and requests it cannot serve, and keeps serving", async () => {
		expect(await exchange(proxy.socketPath, "\x00\x01garbage\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
		const refused = await exchange(proxy.socketPath, `CONNECT 127.0.0.1:${portB} HTTP/1.1\r\n\r\n`);
		expect(refused).toMatch(/^HTTP\/1\.1 403/);
		expect(refused).toContain("is not in sandbox.network.allow");
		// A name that smuggles another host in front of an allowed one is no host at all.
		expect(await exchange(proxy.socketPath, `CONNECT evil.org@127.0.0.1:${portA} HTTP/1.1\r\n\r\n`)).toMatch(
			/^HTTP\/1\.1 400/,
		);
		expect(await exchange(proxy.socketPath, "CONNECT 127.0.0.1 HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
		expect(await exchange(proxy.socketPath, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^HTTP\/1\.1 400/);
		expect(
			await exchange(proxy.socketPath, `GET https://127.0.0.1:${portA}/ HTTP/1.1\r\nHost: x\r\n\r\n`),
		).toMatch(/^HTTP\/1\.1 400/);
		expect(await fetchThrough(`http://127.0.0.1:${portA}/`)).toContain("hello from A");
	});

	it("checks every request of a kept-alive connection, not only the first", async () => {
		const answer = await exchange(
			proxy.socketPath,
			`GET http://127.0.0.1:${portA}/ HTTP/1.1\r\nHost: a\r\n\r\nGET http://127.0.0.1:${portB}/ HTTP/1.1\r\nHost: b\r\n\r\n`,
		);
		expect(answer).toContain("hello from A");
		expect(answer).toContain("403 Forbidden");
		expect(answer).not.toContain("hello from B");
	});

	it("a client that hangs up mid-tunnel or before its answer costs nothing but that connection", async () => {
		for (let round = 0; round < 5; round++) {
			const idle = connect(proxy.socketPath);
			idle.on("error", () => {});
			idle.write(`CONNECT 127.0.0.1:${portA} HTTP/1.1\r\n\r\nGET /slow HTTP/1.1\r\nHost: a\r\n`);
			await new Promise((resolve) => idle.once("data", resolve));
			idle.destroy();

			const streaming = connect(proxy.socketPath);
			streaming.on("error", () => {});
			streaming.write(`CONNECT 127.0.0.1:${portA} HTTP/1.1\r\n\r\nGET /big HTTP/1.1\r\nHost: a\r\n\r\n`);
			await waitForText(streaming, "HTTP/1.1 200 OK");
			streaming.destroy();

			const plain = connect(proxy.socketPath);
			plain.on("error", () => {});
			plain.write(`GET http://127.0.0.1:${portA}/slow HTTP/1.1\r\nHost: a\r\n\r\n`);
			await new Promise((resolve) => setTimeout(resolve, 20));
			plain.destroy();
		}
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(await fetchThrough(`http://127.0.0.1:${portA}/`)).toContain("hello from A");
	});

	it("a target that is not listening gets the client a 502, not a crash", async () => {
		const closed = await listen("");
		await new Promise((resolve) => closed[0].close(resolve));
		const lonely = await NetworkProxy.start([[`127.0.0.1:${closed[1]}`]]);
		try {
			expect(await exchange(lonely.socketPath, `CONNECT 127.0.0.1:${closed[1]} HTTP/1.1\r\n\r\n`)).toMatch(
				/^HTTP\/1\.1 502/,
			);
			expect(
				await exchange(lonely.socketPath, `GET http://127.0.0.1:${closed[1]}/ HTTP/1.1\r\nHost: a\r\n\r\n`),
			).toMatch(/^HTTP\/1\.1 502/);
		} finally {
			await lonely.close();
		}
	});

	it("lives in a private directory that close() removes, cutting open tunnels", async () => {
		const own = await NetworkProxy.start([[`127.0.0.1:${portA}`]]);
		const directory = dirname(own.socketPath);
		expect(statSync(directory).mode & 0o777).toBe(0o700);
		expect(readdirSync(directory)).toEqual(["proxy.sock"]);
		const tunnel = connect(own.socketPath);
		tunnel.on("error", () => {});
		tunnel.write(`CONNECT 127.0.0.1:${portA} HTTP/1.1\r\n\r\n`);
		await new Promise((resolve) => tunnel.once("data", resolve));
		const cut = new Promise((resolve) => tunnel.once("close", resolve));
		await own.close();
		await cut;
		expect(existsSync(directory)).toBe(false);
	});

	it("will not start without an allow list: no list would mean every host", async () => {
		await expect(NetworkProxy.start([])).rejects.toThrow("at least one allow list");
	});
});

/** Everything the proxy sends back for `bytes`, until it closes the connection or goes quiet. */
function exchange(socketPath: string, bytes: string): Promise<string> {
	return new Promise((resolve) => {
		const socket = connect(socketPath);
		let answer = "";
		socket.on("data", (chunk) => {
			answer += chunk;
		});
		socket.on("error", () => {});
		socket.on("close", () => resolve(answer));
		socket.setTimeout(1000, () => socket.destroy());
		socket.write(bytes);
	});
}

function fetchThrough(url: string): Promise<string> {
	return exchange(proxy.socketPath, `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
}

/** The socat processes below `root` on the host, found through /proc. */
function socatBelow(root: number): number[] {
	const parents = new Map<number, number>();
	for (const name of readdirSync("/proc")) {
		const pid = Number(name);
		if (!Number.isInteger(pid)) continue;
		try {
			// `pid (comm) state ppid …`: comm may hold spaces, so read from its closing parenthesis.
			const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
			parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
		} catch {
			// Gone while the list was read.
		}
	}
	const below = (pid: number): boolean => {
		for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
			if (at === root) return true;
		return false;
	};
	return [...parents.keys()].filter((pid) => below(pid) && isSocat(pid));
}

function isSocat(pid: number): boolean {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(
			"UNIX-CONNECT:/tmp/.pi-permission-hub-proxy.sock",
		);
	} catch {
		return false;
	}
}

/** Resolves once `text` has arrived on `socket`. */
function waitForText(socket: Socket, text: string): Promise<void> {
	return new Promise((resolve) => {
		let seen = "";
		const onData = (chunk: Buffer) => {
			seen += chunk;
			if (!seen.includes(text)) return;
			socket.off("data", onData);
			resolve();
		};
		socket.on("data", onData);
	});
}

async function waitFor(done: () => boolean): Promise<void> {
	for (let tries = 0; tries < 100 && !done(); tries++)
		await new Promise((resolve) => setTimeout(resolve, 20));
}

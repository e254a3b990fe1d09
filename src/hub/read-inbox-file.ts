import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type InboxRead =
	| { readonly ok: true; readonly text: string }
	| { readonly ok: false; readonly missing: boolean; readonly reason: string };

/**
 * Read a file another process put in an inbox, without trusting it: never through a symlink (O_NOFOLLOW),
 * only a regular file, only up to `maxBytes` (a larger file is refused unread), and never throwing.
 */
export function readInboxFile(file: string, maxBytes: number): InboxRead {
	let fd: number;
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
	} catch (error) {
		const code = typeof error === "object" && error !== null ? Reflect.get(error, "code") : undefined;
		if (code === "ENOENT") return { ok: false, missing: true, reason: "the file is gone" };
		if (code === "ELOOP") return { ok: false, missing: false, reason: "the file is a symbolic link" };
		return { ok: false, missing: false, reason: `cannot open the file (${String(code ?? error)})` };
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isFile()) return { ok: false, missing: false, reason: "not a regular file" };
		if (stat.size > maxBytes) {
			return {
				ok: false,
				missing: false,
				reason: `the file is ${stat.size} bytes, more than the ${maxBytes} allowed`,
			};
		}
		const buffer = Buffer.alloc(stat.size);
		let read = 0;
		while (read < stat.size) {
			const n = readSync(fd, buffer, read, stat.size - read, read);
			if (n === 0) break;
			read += n;
		}
		return { ok: true, text: buffer.subarray(0, read).toString("utf8") };
	} catch (error) {
		return { ok: false, missing: false, reason: `cannot read the file (${String(error)})` };
	} finally {
		closeSync(fd);
	}
}

import { randomBytes } from "node:crypto";

/** Crockford base32: no I, L, O, U, so an id never reads as a word or a path. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A ULID-shaped id: 10 characters of millisecond time (so a listing sorts oldest first) and 16 of
 * randomness (80 bits: not guessable by another local process watching the directory).
 */
export function newRequestId(now: number = Date.now()): string {
	let time = "";
	let t = now;
	for (let i = 0; i < 10; i++) {
		time = ALPHABET.charAt(t % 32) + time;
		t = Math.floor(t / 32);
	}
	const random = randomBytes(16);
	let tail = "";
	for (const byte of random) tail += ALPHABET.charAt(byte % 32);
	return time + tail;
}

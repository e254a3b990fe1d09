/**
 * GNU date strings (`date -d`, `find -newermt`) may name their own time zone, `TZ="Europe/Paris" 2004-10-31`,
 * and the program opens that zone's file: as for the TZ variable, a path (`TZ="/dev/tty"`) opens any file, a
 * device among them.
 */
import type { TierRaise } from "../tier-raise.ts";
import { isZoneName } from "./environment-injection.ts";

/** A raise for a date string whose `TZ="…"` is not a plain zone name (or cannot be read as one); else null. */
export function dateStringCheck(value: string): TierRaise | null {
	if (!/TZ\s*=/i.test(value)) return null;
	const zone = /^\s*TZ="([^"\\]*)"/.exec(value)?.[1];
	return zone !== undefined && isZoneName(zone)
		? null
		: {
				tier: "privileged",
				reason: `the date string \`${value}\` names a time zone file that is not a zone name`,
			};
}

/**
 * file: it guesses the type of the files it is given; a magic file of its own (`-m`) is not proven read-only.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, raising } from "./option-notation.ts";
import { files, HELP, readsListedFiles } from "./read-only-helpers.ts";

const file: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --brief",
			"-c --checking-printout",
			"-E",
			"-h --no-dereference",
			"-i --mime",
			"--mime-type",
			"--mime-encoding",
			"-k --keep-going",
			"-L --dereference",
			"-N --no-pad",
			"-n --no-buffer",
			"-r --raw",
			"-s --special-files",
			"-0 --print0",
			"--extension",
			"--apple",
			"-e= --exclude=",
			"--exclude-quiet=",
			"-F= --separator=",
			"-m=@ --magic-file=@",
			"-P= --parameter=",
			"-v",
			...HELP,
		),
		raising("write", "file -C compiles a magic file, writing it", "-C --compile"),
		readsListedFiles("-f= --files-from=", "file -f"),
		// file -z runs the decompressor for formats libmagic has no library for (`zstd -cd`, `lzip -cd`, found on
		// PATH), as rg -z does.
		raising("write", "file -z runs decompression programs", "-z --uncompress -Z --uncompress-noreport"),
	],
	operands: files,
};

export const FILE: CommandSpec = {
	readOnly: file,
	paths: { operands: "read", options: opts("-m=", "-F=", "-e=") },
};

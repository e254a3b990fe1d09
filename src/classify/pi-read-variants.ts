/**
 * pi's `read` tool does not always read the path it is given: when that path does not exist it tries, in turn,
 * macOS spellings of it (a narrow no-break space before `AM.`/`PM.`, the NFD form, a curly `’` for `'`, NFD and
 * curly together) and reads the first that exists. `/home/\u212Aim/...` (a Kelvin sign) does not exist, but its
 * NFD form `/home/Kim/...` may be the inbox. The classifier checks every one of them.
 */
const NARROW_NO_BREAK_SPACE = "\u202F";

/** The other absolute paths pi's `read` may open for `absolute`, without `absolute` itself. */
export function piReadVariants(absolute: string): string[] {
	const nfd = absolute.normalize("NFD");
	const variants = [
		absolute.replace(/ (AM|PM)\./gi, `${NARROW_NO_BREAK_SPACE}$1.`),
		nfd,
		absolute.replace(/'/g, "\u2019"),
		nfd.replace(/'/g, "\u2019"),
	];
	return [...new Set(variants)].filter((variant) => variant !== absolute);
}

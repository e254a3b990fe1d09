/**
 * The five-command chain the decision figures classify: a cd, a pipeline, a redirect to a file and a recursive
 * delete. A module with no imports, so the cold-start probe can use it without warming anything.
 */
export const FIVE_COMMAND_CHAIN_TEXT =
	"cd src && git status --short | grep -v foo; npm run build > out.log 2>&1 && rm -rf dist/tmp";

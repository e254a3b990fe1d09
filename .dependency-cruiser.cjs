/**
 * The dependency rules between the folders of src/ (adr/0001), checked in `npm test`. Each layer may import only
 * the layers before it; no file may take part in an import cycle.
 */
const LAYERS = [
	"vocabulary",
	"origin",
	"provenance",
	"process-wide",
	"classify",
	"policy",
	"sandbox",
	"launchers",
	"audit",
	"hub",
	"authority",
	"slash-command",
	"gate",
	"cli",
	"api",
	"index",
];

/** `src/<layer>/…` or `src/<layer>.ts`. */
const pathOf = (layer) => `^src/${layer}(/|\\.ts$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: "no-circular",
			severity: "error",
			comment:
				"Files in an import cycle cannot be understood apart; move the shared type below both (adr/0001).",
			from: {},
			to: { circular: true },
		},
		...LAYERS.slice(0, -1).map((layer, index) => ({
			name: `layer-${layer}`,
			severity: "error",
			comment: `src/${layer} is below ${LAYERS.slice(index + 1).join(", ")} and may not import them (adr/0001).`,
			from: { path: pathOf(layer) },
			to: { path: LAYERS.slice(index + 1).map(pathOf) },
		})),
		{
			name: "zod-through-vocabulary",
			severity: "error",
			comment:
				"src/ imports zod from src/vocabulary/zod.ts: zod/mini, configured before any schema is built; classic zod would put all of it back into the gate's bundle (adr/0029).",
			from: { path: "^src/", pathNot: "^src/vocabulary/zod\\.ts$" },
			to: { path: "node_modules/zod/" },
		},
		{
			name: "command-files-below-engines",
			severity: "error",
			comment:
				"src/classify/bash/commands/ says what each command is; the engines read it from the registry, never the reverse: a command file imports only shared spec types and helpers (adr/0003).",
			from: { path: "^src/classify/bash/commands/" },
			to: {
				path: "^src/classify/bash/(read-proof|command-tier-lookup|command-tier-refiners|command-tier-table|command-paths|wrappers|bash-walk|classify-bash)\\.ts$",
			},
		},
		{
			name: "layer-known",
			severity: "error",
			comment: "Every folder of src/ has a place in the layers of .dependency-cruiser.cjs and adr/0001.",
			from: { path: "^src/", pathNot: LAYERS.map(pathOf) },
			to: {},
		},
	],
	options: {
		doNotFollow: { path: "node_modules" },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: "tsconfig.json" },
		enhancedResolveOptions: { extensions: [".ts", ".js"] },
	},
};

/**
 * `npm install`'s first words in a checkout whose machine Node is older than pi needs (Node 22 comes as a dev
 * dependency, adr/0001). npm would print one EBADENGINE warning per package that needs Node 22 — over a hundred lines
 * that look like failure — before the install works; `.npmrc` silences them, and this says once what is going
 * on. Plain CommonJS with no dependencies. Silent where the package is installed as a dependency (npm runs its
 * scripts there too, from another directory).
 */
// npm runs this after it has installed the dependencies, with node@22 first on PATH: the Node the user has is
// the one npm itself runs on, which npm names in its user agent (`npm/11.6.2 node/v20.19.0 linux x64 …`).
const agentNode = /\bnode\/v(\d+)\.(\d+)/.exec(process.env.npm_config_user_agent ?? "");
const [major, minor] = agentNode
	? [Number(agentNode[1]), Number(agentNode[2])]
	: process.versions.node.split(".").map(Number);
const version = agentNode ? `v${agentNode[1]}.${agentNode[2]}` : process.version;
const tooOld = major < 22 || (major === 22 && minor < 19);
const checkout = process.env.INIT_CWD === undefined || process.env.INIT_CWD === process.cwd();
if (tooOld && checkout) {
	console.log(
		[
			`pi-permission-hub: this machine's Node is ${version}; pi and this project need Node >= 22.19.`,
			"npm installs Node 22 as a dev dependency (node@22), and every npm script runs on it: `npm test` works as is.",
			"npm's warnings about engines are silenced for this checkout (.npmrc: loglevel=error).",
		].join("\n"),
	);
}

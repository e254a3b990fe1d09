/**
 * `npm install`'s first words in a checkout whose machine Node is older than pi needs (Node 22 comes as a dev
 * dependency, adr/0001). npm would print one EBADENGINE warning per package that needs Node 22 — over a hundred lines
 * that look like failure — before the install works; `.npmrc` silences them, and this says once what is going
 * on. Plain CommonJS with no dependencies: it runs on the old Node, before anything is installed. Silent where
 * the package is installed as a dependency (npm runs its scripts there too, from another directory).
 */
const [major, minor] = process.versions.node.split(".").map(Number);
const tooOld = major < 22 || (major === 22 && minor < 19);
const checkout = process.env.INIT_CWD === undefined || process.env.INIT_CWD === process.cwd();
if (tooOld && checkout) {
	console.log(
		[
			`pi-permission-hub: this machine's Node is ${process.version}; pi and this project need Node >= 22.19.`,
			"npm installs Node 22 as a dev dependency (node@22), and every npm script runs on it: `npm test` works as is.",
			"npm's warnings about engines are silenced for this checkout (.npmrc: loglevel=error).",
		].join("\n"),
	);
}

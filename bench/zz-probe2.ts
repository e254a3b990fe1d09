import { bashParser, classifyBash } from "../test/classify/classify-fixture.ts";
const bash = await bashParser();
for (const c of process.argv.slice(2)) {
  const a = classifyBash(bash, c);
  for (const p of a.parts) console.log(JSON.stringify({tier:p.tier, k:p.knownEffects, cmd:p.command?.text, argv:p.command?.argv, via:p.command?.via}));
}

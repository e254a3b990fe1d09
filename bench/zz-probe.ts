import { bashParser, classifyBash } from "../test/classify/classify-fixture.ts";
const bash = await bashParser();
for (const c of process.argv.slice(2)) {
  const a = classifyBash(bash, c);
  console.log(c, "=>", a.tier);
  for (const p of a.parts) console.log("   ", p.tier, "|", p.tierReason, "|", p.command?.text, "|", p.command?.via, "|", p.paths.map(t=>`${t.access}:${t.typed}:${t.absolute}`).join(", "));
}

import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import {
	builtInTier,
	compileCommandPattern,
	matchesCommandPattern,
} from "../../src/classify/bash/command-tier-lookup.ts";
import { BUILT_IN_COMMAND_TIERS } from "../../src/classify/bash/command-tier-table.ts";
import { TIERS, type Tier } from "../../src/vocabulary/tier.ts";
import { bashParser, classifyBash } from "./classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

describe("command patterns", () => {
	it("* matches any run of characters and a trailing ' *' is optional", () => {
		expect(matchesCommandPattern("git push *", "git push")).toBe(true);
		expect(matchesCommandPattern("git push *", "git push origin main")).toBe(true);
		expect(matchesCommandPattern("git push *", "git pushx")).toBe(false);
		expect(matchesCommandPattern("rm *", "rm -rf /")).toBe(true);
		expect(matchesCommandPattern("*--force*", "git push --force origin")).toBe(true);
		expect(matchesCommandPattern("a*b", "ab")).toBe(true);
		expect(matchesCommandPattern("a*b", "acb x")).toBe(false);
		expect(matchesCommandPattern("ls", "ls -la")).toBe(false);
		expect(matchesCommandPattern("a.c", "abc")).toBe(false);
	});

	// How long it takes is bench figure 9 (npm run bench -- 9).
	it("answers on adversarial input", () => {
		const text = "a".repeat(200_000);
		expect(matchesCommandPattern("*a*a*a*a*a*b", text)).toBe(false);
	});

	it("counts only required literal characters as specificity", () => {
		expect(compileCommandPattern("git branch *").specificity).toBe(
			compileCommandPattern("git branch").specificity,
		);
		expect(compileCommandPattern("git branch").wildcards).toBe(0);
	});
});

describe("the built-in table", () => {
	it("is data: every entry has a pattern and a known tier", () => {
		expect(BUILT_IN_COMMAND_TIERS.length).toBeGreaterThan(300);
		for (const entry of BUILT_IN_COMMAND_TIERS) {
			expect(TIERS).toContain(entry.tier);
			expect(entry.pattern.trim()).toBe(entry.pattern);
		}
	});

	it("lets the most specific pattern win", () => {
		expect(builtInTier("git reset --hard HEAD").tier).toBe("destructive");
		expect(builtInTier("git reset HEAD~1").tier).toBe("write");
		expect(builtInTier("git branch feature").tier).toBe("write");
		expect(builtInTier("hostname newname").tier).toBe("privileged");
		expect(builtInTier("git clean -fdx").tier).toBe("destructive");
		// Nothing in the table is read: read is proven word by word, and the table decides the rest.
		expect(classifyBash(bash, "git branch").tier).toBe("read");
		expect(classifyBash(bash, "git branch feature").tier).toBe("write");
		expect(classifyBash(bash, "hostname").tier).toBe("read");
		expect(classifyBash(bash, "hostname newname").tier).toBe("privileged");
	});

	it("defaults unknown commands to write", () => {
		const match = builtInTier("frobnicate --all");
		expect(match).toEqual({ tier: "write", pattern: undefined });
	});
});

const EXPECTED: Readonly<Record<Tier, readonly string[]>> = {
	read: [
		"ls -la",
		"cat README.md",
		"head -n 5 f",
		"tail -f log",
		"wc -l f",
		"grep -r foo src",
		"rg foo",
		"find . -name '*.ts'",
		"tree -L 2",
		"stat f",
		"which node",
		"echo hi",
		"printf '%s' x",
		"pwd",
		"whoami",
		"date",
		"env",
		"printenv PATH",
		"du -sh .",
		"df -h",
		"ps aux",
		"uname -a",
		"diff a b",
		"sort f",
		"uniq f",
		"cut -d, -f1 f",
		"tr a-z A-Z",
		"jq .x f.json",
		"sed -n 1p f",
		"test -f x",
		"true",
		"git status --short",
		"git diff HEAD",
		"git log --oneline",
		"git show HEAD",
		"git rev-parse HEAD",
		"git remote -v",
		"git ls-files",
		"git blame f",
		"git --no-pager log",
		"node --version",
		"cd src",
	],
	write: [
		// Not proven read-only (adr/0003): asked for, though some forms only read.
		"fd pattern",
		"awk '{print $1}' f",
		"tsc --noEmit",
		"kill -l",
		// Another repository's own config can make git run programs.
		"git -C sub status",
		"GIT_DIR=x git log",
		"HOME=/tmp/x git log",
		// The project's .npmrc can point npm at any host and make it write anywhere.
		"npm ls",
		"touch f",
		"mkdir -p a/b",
		"cp a b",
		"mv a b",
		"ln -s a b",
		"tee out",
		"sed -i s/a/b/ f",
		"sed -Ei s/a/b/ f",
		"sed --in-place=.bak s/a/b/ f",
		"git add .",
		"git commit -m x",
		"git checkout main",
		"git switch -c x",
		"git restore --staged f",
		"git stash",
		"git merge x",
		"git rebase main",
		"npm run build",
		"npm test",
		"make",
		"cargo build",
		"tsc -p .",
		"prettier --write .",
		"chmod +x script.sh",
		"chown me f",
		"frobnicate",
		"echo hi > out.txt",
		"python3 script.py",
		"kill 1234",
		"docker build .",
		"yq -i '.a = 1' f.yaml",
		"awk '{ print > \"out\" }' f",
		"find . -fprint out",
		"sort -o sorted f",
	],
	"network-egress": [
		"curl https://example.com",
		"wget https://example.com/x",
		"git push origin main",
		"git -C repo push",
		"git fetch",
		"git pull",
		"git clone https://x/y",
		"ssh host",
		"scp f host:/tmp",
		"rsync -a . host:/srv",
		"nc -l 80",
		"npm publish",
		"npm view react version",
		"npm outdated",
		"npm install",
		"npm i react",
		"pnpm install",
		"pip install requests",
		"gh pr create",
		"aws s3 cp f s3://b/",
		"kubectl get pods",
		"docker push img",
		"npx create-react-app x",
	],
	spend: [
		"terraform apply",
		"pulumi up",
		"aws ec2 run-instances --image-id x",
		"gcloud compute instances create vm",
		"az vm create -n x",
		"kubectl apply -f x.yaml",
		"kubectl scale deploy x --replicas=5",
		"helm install x chart",
		"helm upgrade x chart",
	],
	destructive: [
		"rm f",
		"rm -rf build",
		"rmdir d",
		"shred f",
		"dd if=/dev/zero of=disk.img",
		"truncate -s 0 f",
		"git reset --hard",
		"git clean -fd",
		"git push --force",
		"git push -f origin main",
		"git push origin +main",
		"git push --force-with-lease",
		"git push origin :old",
		"git branch -D x",
		"git branch -d -f x",
		"git checkout -- .",
		"git checkout main -- f",
		"git restore .",
		"git stash drop",
		"terraform destroy",
		"terraform apply -destroy",
		"kubectl delete pod x",
		"kubectl --context prod delete ns x",
		"docker rm c",
		"docker rmi img",
		"docker system prune -a",
		"docker compose down -v",
		"find . -delete",
		"rsync -a --delete src/ dst/",
		"mkfs.ext4 img",
	],
	privileged: [
		// Not read (-T writes temporary files), and where it writes is a system directory.
		"sort -T /etc/x f",
		"systemctl status nginx",
		"crontab -l",
		"sudo ls",
		"su -",
		"doas ls",
		"chmod -R 777 /",
		"chown root /etc/passwd",
		"mount /dev/sda1 /mnt",
		"umount /mnt",
		"systemctl restart nginx",
		"service nginx restart",
		"launchctl load x.plist",
		"iptables -F",
		"useradd bob",
		"passwd",
		"crontab -e",
		"visudo",
		"kill -9 1",
		"kill -- -1",
		"shutdown -h now",
		"reboot",
		"echo x > /etc/hosts",
		"tee -a /etc/hosts",
		"cp x /usr/local/bin/",
		"touch /var/lib/x",
		"rm -rf /boot/x",
		"sed -i s/a/b/ /etc/fstab",
		"dd if=img of=/dev/sda",
		"apt-get install curl",
	],
};

describe("built-in tiers", () => {
	for (const tier of TIERS) {
		describe(tier, () => {
			for (const command of EXPECTED[tier]) {
				it(command, () => {
					const action = classifyBash(bash, command);
					expect(action.tier, JSON.stringify(action.parts.map((p) => [p.tier, p.tierReason]))).toBe(tier);
				});
			}
		});
	}

	it("never treats a write outside system directories as privileged", () => {
		for (const command of ["echo x > /tmp/x", "cp a /var/tmp/x", "echo x > /dev/null", "cmd 2>/dev/stderr"]) {
			expect(classifyBash(bash, command).tier, command).not.toBe("privileged");
		}
	});
});

describe("extra classifications from config", () => {
	it("raise a command's tier by the same wildcard rules", () => {
		const extra = [{ pattern: "make deploy*", tier: "spend" as const }];
		const action = classifyBash(bash, "make deploy-prod", { extraCommandTiers: extra });
		expect(action.tier).toBe("spend");
		expect(action.parts[0]?.tierReason).toMatch(/config/);
	});

	it("never lower a built-in tier", () => {
		const extra = [{ pattern: "rm *", tier: "read" as const }];
		expect(classifyBash(bash, "rm -rf x", { extraCommandTiers: extra }).tier).toBe("destructive");
	});

	it("apply to inner commands of wrappers and to the table key", () => {
		const extra = [{ pattern: "git push *", tier: "spend" as const }];
		expect(classifyBash(bash, "sudo -u ci git -C repo push", { extraCommandTiers: extra }).tier).toBe(
			"privileged",
		);
		expect(classifyBash(bash, "bash -c 'git -C repo push'", { extraCommandTiers: extra }).tier).toBe("spend");
	});

	it("take the maximum over every matching extra", () => {
		const extra = [
			{ pattern: "deploy *", tier: "spend" as const },
			{ pattern: "deploy --nuke*", tier: "destructive" as const },
		];
		expect(classifyBash(bash, "deploy --nuke all", { extraCommandTiers: extra }).tier).toBe("destructive");
	});
});

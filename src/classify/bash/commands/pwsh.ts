/** pwsh: PowerShell under its cross-platform name, unwrapped as powershell is (commands/powershell.ts). */
import type { CommandSpec } from "./command-spec.ts";
import { POWERSHELL } from "./powershell.ts";

export const PWSH: CommandSpec = { unwrap: POWERSHELL.unwrap };

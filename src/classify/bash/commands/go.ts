/**
 * go: by subcommand, write for `go build *`, `go test *`, `go run *`, `go fmt *`, `go generate *`; network-
 * egress for `go get *`, `go install *`, `go mod download *`, `go mod tidy *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GO_TIERS = [
	...rows("write", ["go build *", "go test *", "go run *", "go fmt *", "go generate *"]),
	...rows("network-egress", ["go get *", "go install *", "go mod download *", "go mod tidy *"]),
];

export const GO: CommandSpec = { tiers: GO_TIERS };

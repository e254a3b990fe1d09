/**
 * The part of JSON Schema that `z.toJSONSchema` emits for the config schemas, read back as typed data so the
 * configuration reference can be rendered from the very schema editors see. Parsed with zod, not cast: a schema
 * shape this module does not know makes rendering fail loudly instead of documenting something wrong.
 */
import * as z from "zod/mini";
import { lazySchema } from "../../src/vocabulary/lazy-schema.ts";

export interface JsonSchemaNode {
	readonly title?: string | undefined;
	readonly description?: string | undefined;
	readonly type?: string | undefined;
	readonly enum?: readonly string[] | undefined;
	readonly const?: string | undefined;
	readonly properties?: Readonly<Record<string, JsonSchemaNode>> | undefined;
	readonly required?: readonly string[] | undefined;
	readonly items?: JsonSchemaNode | undefined;
	readonly oneOf?: readonly JsonSchemaNode[] | undefined;
	readonly additionalProperties?: boolean | JsonSchemaNode | undefined;
	readonly propertyNames?: JsonSchemaNode | undefined;
	readonly not?: JsonSchemaNode | undefined;
	readonly minLength?: number | undefined;
	readonly maxLength?: number | undefined;
	readonly exclusiveMinimum?: number | undefined;
	readonly minimum?: number | undefined;
	readonly maximum?: number | undefined;
	readonly pattern?: string | undefined;
}

const nodeSchema = lazySchema(
	(): z.ZodMiniType<JsonSchemaNode> =>
		z.lazy(() =>
			z.object({
				title: z.optional(z.string()),
				description: z.optional(z.string()),
				type: z.optional(z.string()),
				enum: z.optional(z.array(z.string())),
				const: z.optional(z.string()),
				properties: z.optional(z.record(z.string(), nodeSchema())),
				required: z.optional(z.array(z.string())),
				items: z.optional(nodeSchema()),
				oneOf: z.optional(z.array(nodeSchema())),
				additionalProperties: z.optional(z.union([z.boolean(), nodeSchema()])),
				propertyNames: z.optional(nodeSchema()),
				not: z.optional(nodeSchema()),
				minLength: z.optional(z.number()),
				maxLength: z.optional(z.number()),
				exclusiveMinimum: z.optional(z.number()),
				minimum: z.optional(z.number()),
				maximum: z.optional(z.number()),
				pattern: z.optional(z.string()),
			}),
		),
);

export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchemaNode {
	return nodeSchema().parse(z.toJSONSchema(schema, { target: "draft-2020-12" }));
}

/** `not: {}`: the key exists in the schema only to be refused with a clear message. */
export function isForbidden(node: JsonSchemaNode): boolean {
	return node.not !== undefined && Object.keys(node.not).length === 0;
}

/** A short, human-readable type: `string (1–1000 characters)`, `array of objects`, `` `a`, `b` or `c` ``. */
export function describeType(node: JsonSchemaNode): string {
	if (isForbidden(node)) return "not allowed";
	if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
	if (node.enum !== undefined) return `one of ${node.enum.map((v) => `\`${v}\``).join(", ")}`;
	switch (node.type) {
		case "string":
			return `string${stringLimits(node)}`;
		case "integer":
		case "number":
			return `${node.type}${numberLimits(node)}`;
		case "boolean":
			return "boolean";
		case "array":
			return node.items ? `array of ${plural(describeType(node.items))}` : "array";
		case "object":
			return objectType(node);
		default:
			if (node.oneOf !== undefined) {
				const variants = [...new Set(node.oneOf.map(describeType))];
				return variants.join(" or ");
			}
			throw new Error(`cannot describe JSON Schema node ${JSON.stringify(node)}`);
	}
}

function objectType(node: JsonSchemaNode): string {
	const values = node.additionalProperties;
	if (node.properties === undefined && typeof values === "object") {
		const keys = node.propertyNames ? describeType(node.propertyNames) : "string";
		return `object: ${keys} → ${describeType(values)}`;
	}
	return "object";
}

function stringLimits(node: JsonSchemaNode): string {
	const limits: string[] = [];
	if (node.minLength !== undefined && node.maxLength !== undefined) {
		limits.push(`${node.minLength}–${node.maxLength} characters`);
	} else if (node.maxLength !== undefined) limits.push(`at most ${node.maxLength} characters`);
	else if (node.minLength !== undefined) limits.push(`at least ${node.minLength} characters`);
	if (node.pattern === "\\S") limits.push("not blank");
	else if (node.pattern !== undefined) limits.push(`matching \`/${node.pattern}/\``);
	return limits.length > 0 ? ` (${limits.join(", ")})` : "";
}

function numberLimits(node: JsonSchemaNode): string {
	const limits: string[] = [];
	if (node.exclusiveMinimum !== undefined) limits.push(`> ${node.exclusiveMinimum}`);
	if (node.minimum !== undefined) limits.push(`≥ ${node.minimum}`);
	// zod bounds every integer by the largest safe one; that is not a limit anybody configures against.
	if (node.maximum !== undefined && node.maximum !== Number.MAX_SAFE_INTEGER)
		limits.push(`≤ ${node.maximum}`);
	return limits.length > 0 ? ` ${limits.join(", ")}` : "";
}

function plural(type: string): string {
	if (type.startsWith("string") || type.startsWith("object")) return type.replace(/^(\w+)/, "$1s");
	return type;
}

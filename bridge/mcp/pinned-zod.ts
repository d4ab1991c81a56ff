/**
 * The pinned input schemas of the seven public tools (bridge/upstream/pinned-tools.ts) as zod validators, so the
 * SDK checks every proxied call against the pin before anything is sent: the bridge never widens a tool beyond
 * its pinned schema (product.md §9), whatever the upstream now accepts.
 *
 * Only the JSON Schema keywords the pins use are understood; any other keyword is an error at start-up (fail
 * closed). Annotations (`description`, `default`, `format`) are not enforced here: the hosted server applies its
 * own defaults and checks formats with its own precise messages, and arguments are forwarded as the client's
 * exact text.
 */
import { z } from "zod";

type Json = Record<string, unknown>;

const ANNOTATIONS = new Set(["description", "default", "format", "title"]);

function fail(path: string, what: string): never {
  throw new Error(`pinned schema ${path}: ${what}`);
}

function checkKeys(s: Json, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(s)) if (!allowed.includes(k) && !ANNOTATIONS.has(k)) fail(path, `unsupported keyword '${k}'`);
}

function bound(v: unknown, path: string, key: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) fail(path, `${key} must be an integer`);
  return v;
}

function property(s: Json, path: string): z.ZodType {
  switch (s.type) {
    case "string": {
      checkKeys(s, ["type", "enum", "minLength", "maxLength"], path);
      if (s.enum !== undefined) {
        if (!Array.isArray(s.enum) || s.enum.length === 0 || s.enum.some((x) => typeof x !== "string")) fail(path, "enum must list strings");
        return z.enum(s.enum as [string, ...string[]]);
      }
      let out = z.string();
      const min = bound(s.minLength, path, "minLength");
      const max = bound(s.maxLength, path, "maxLength");
      if (min !== undefined) out = out.min(min);
      if (max !== undefined) out = out.max(max);
      return out;
    }
    case "integer": {
      checkKeys(s, ["type", "minimum", "maximum"], path);
      let out = z.number().int();
      const min = bound(s.minimum, path, "minimum");
      const max = bound(s.maximum, path, "maximum");
      if (min !== undefined) out = out.min(min);
      if (max !== undefined) out = out.max(max);
      return out;
    }
    default:
      return fail(path, `unsupported type ${JSON.stringify(s.type)}`);
  }
}

/** A strict zod object for a pinned `{type: "object", properties, required?, additionalProperties: false}`. */
export function zodFromPinned(schema: Readonly<Json>, path = "inputSchema"): z.ZodObject {
  const s = schema as Json;
  checkKeys(s, ["type", "properties", "required", "additionalProperties"], path);
  if (s.type !== "object") fail(path, "the top level must be an object schema");
  if (s.additionalProperties !== false) fail(path, "additionalProperties must be false (closed arguments)");
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required ?? []) as string[]);
  for (const r of required) if (!(r in props)) fail(path, `required '${r}' is not a property`);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, p] of Object.entries(props)) {
    const v = property(p, `${path}.properties.${name}`);
    shape[name] = required.has(name) ? v : v.optional();
  }
  return z.strictObject(shape);
}

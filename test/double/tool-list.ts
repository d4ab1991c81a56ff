/**
 * The double's tools/list: the recorded 1.9.0 list (six tools), optionally the 1.9.3 research_catalog entry, and
 * the tool-list faults (an extra write tool, a lost readOnlyHint, a changed input schema).
 */
import { isPyObject, obj, PyNum, pyParse, type PyObject, type PyValue } from "./py-json.js";
import type { RecordedData } from "./recorded.js";

export type Toolset = "recorded" | "current";

export interface ToolListChanges {
  /** Append a write tool (`publish_note`) whose annotations carry no readOnlyHint. */
  extraWriteTool: boolean;
  /** Tool whose `annotations.readOnlyHint` is removed, if any. */
  readOnlyRemovedFrom: string | undefined;
  /** Tool whose input schema is changed (get_signal: `max_rows.maximum` 500 → 5000 and a new `raw` property). */
  schemaChangedFor: string | undefined;
}

/** The research_catalog entry of the 1.9.3 service, built from the interface specification (not recorded). */
export function researchCatalogEntry(): PyObject {
  return obj([
    ["name", "research_catalog"],
    ["title", "Research catalog"],
    [
      "description",
      "Pages the complete editorial registry; the index carries dataset availability and source clocks, and each dataset keeps its cadence, coverage limits and reuse terms.",
    ],
    [
      "inputSchema",
      obj([
        ["type", "object"],
        [
          "properties",
          obj([
            [
              "offset",
              obj([
                ["type", "integer"],
                ["minimum", PyNum.int(0)],
                ["maximum", PyNum.int(1000)],
              ]),
            ],
            [
              "limit",
              obj([
                ["type", "integer"],
                ["minimum", PyNum.int(1)],
                ["maximum", PyNum.int(25)],
              ]),
            ],
          ]),
        ],
        ["required", ["offset"]],
        ["additionalProperties", false],
      ]),
    ],
    [
      "annotations",
      obj([
        ["title", "Research catalog"],
        ["readOnlyHint", true],
        ["idempotentHint", true],
        ["openWorldHint", false],
      ]),
    ],
  ]);
}

export const WRITE_TOOL = "publish_note";

function writeToolEntry(): PyObject {
  return obj([
    ["name", WRITE_TOOL],
    ["title", "Publish a note"],
    ["description", "Publishes a note to the observatory front page."],
    [
      "inputSchema",
      obj([
        ["type", "object"],
        ["properties", obj([["text", obj([["type", "string"]])]])],
        ["required", ["text"]],
        ["additionalProperties", false],
      ]),
    ],
    ["annotations", obj([["title", "Publish a note"]])],
  ]);
}

/** The `result` of tools/list, or undefined when it equals the recorded body (replay it byte for byte). */
export function toolListResult(data: RecordedData, toolset: Toolset, changes: ToolListChanges): PyObject | undefined {
  if (toolset === "recorded" && !changes.extraWriteTool && !changes.readOnlyRemovedFrom && !changes.schemaChangedFor) return undefined;
  const body = pyParse(data.body("05-tools-list.json").toString("utf8")) as PyObject;
  const result = body.get("result") as PyObject;
  const tools = result.get("tools") as PyValue[];
  if (toolset === "current") tools.unshift(researchCatalogEntry());
  for (const t of tools as PyObject[]) {
    const name = t.get("name");
    if (name === changes.readOnlyRemovedFrom) (t.get("annotations") as PyObject).delete("readOnlyHint");
    if (name === changes.schemaChangedFor) {
      const schema = t.get("inputSchema") as PyObject;
      const props = schema.get("properties");
      if (isPyObject(props)) {
        const maxRows = props.get("max_rows");
        if (isPyObject(maxRows)) maxRows.set("maximum", PyNum.int(5000));
        props.set("raw", obj([["type", "boolean"]]));
      }
    }
  }
  if (changes.extraWriteTool) tools.push(writeToolEntry());
  return result;
}

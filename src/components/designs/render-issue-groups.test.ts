import { describe, expect, it } from "vitest";
import { groupIssues } from "./render-issue-groups";

describe("preview and draft warnings, each under its own title", () => {
  it("characters no bundled font can draw are not 'Adjusted to fit', and what stops printing comes first", () => {
    const issues = [
      { kind: "shrunk", message: "The message was set at 9.0 pt instead of 11 pt to fit." },
      { kind: "missing_glyphs", message: "No bundled font can draw 👩 👧 in the message." },
      { kind: "overflow", message: "The headline does not fit its box even at 18.0 pt: shorten it." },
      { kind: "overflow", message: "The sign-off is empty." },
    ];
    expect(groupIssues(issues).map((g) => [g.title, g.color, g.issues.map((i) => i.message)])).toEqual([
      ["Text missing", "red", ["The sign-off is empty."]],
      ["Text does not fit", "red", ["The headline does not fit its box even at 18.0 pt: shorten it."]],
      ["Characters that cannot be printed", "red", ["No bundled font can draw 👩 👧 in the message."]],
      ["Adjusted to fit", "yellow", ["The message was set at 9.0 pt instead of 11 pt to fit."]],
    ]);
  });

  it("a missing-glyphs warning alone is titled for what it is", () => {
    expect(
      groupIssues([{ kind: "missing_glyphs", message: "No bundled font can draw 𓀀 in the message." }]).map(
        (g) => g.title,
      ),
    ).toEqual(["Characters that cannot be printed"]);
    expect(groupIssues([])).toEqual([]);
    expect(
      groupIssues([
        {
          kind: "po_box",
          message: "The address is a PO box; gifts ship to a street address only, so this recipient will be skipped.",
        },
        { kind: "missing_data", message: "No value for {{title}} and no fallback." },
      ]).map((g) => g.title),
    ).toEqual(["An address a gift cannot go to", "Merge data missing"]);
  });
});
